/**
 * The stability level of an API version name (kube's version priority levels: `v1` is GA, `v2beta3` beta,
 * `v1alpha1` alpha), which decides what kube-apiserver serves by default and what `--runtime-config=api/beta` names.
 */

/** A version's level. */
export type VersionLevel = 'ga' | 'beta' | 'alpha';

/** The stability level of a version name (`v1`, `v2beta3`, `v1alpha1`). */
export function versionLevel(version: string): VersionLevel {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}
