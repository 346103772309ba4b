/**
 * The resources this server serves: every built-in group-version-resource of 1.27 (the generated data), on by default
 * as kube-apiserver 1.27 serves them. Behaviour beyond the generic store comes from a strategy file per resource.
 * Group keys are neutral (see the naming table); `''` is the core group.
 */
import { generatedResources } from '../schema/generated-data.js';
import { versionLevel } from './version-level.js';

/** One served resource. Subresources come from the catalog. */
export interface ServedResource {
  readonly groupKey: string;
  readonly version: string;
  readonly resource: string;
}

/**
 * Beta group-versions kube-apiserver 1.27 serves by default although introduced after 1.22 (its
 * legacyBetaEnabledByDefaultResources: API Priority and Fairness had no stable version yet). Every other beta of
 * 1.27 (`authentication/v1beta1`) is off by default, as document 1's level table says.
 */
const betaOnByDefault: ReadonlySet<string> = new Set(['flowcontrol.apiserver/v1beta2', 'flowcontrol.apiserver/v1beta3']);

/** Whether 1.27 serves a resource without `--runtime-config` (stable versions and the legacy betas). */
export function servedByDefault(r: ServedResource): boolean {
  const level = versionLevel(r.version);
  return level === 'ga' || (level === 'beta' && betaOnByDefault.has(`${r.groupKey}/${r.version}`));
}

/** Every built-in resource of 1.27, from the generated data, in its order (core first). */
export const builtinResources: readonly ServedResource[] = generatedResources().groupVersions.flatMap((gv) =>
  gv.resources.map((r) => ({ groupKey: gv.groupKey, version: gv.version, resource: r.resource })));

/** The served set by default (kube-apiserver 1.27's DefaultAPIResourceConfigSource). */
export const servedResources: readonly ServedResource[] = builtinResources.filter(servedByDefault);

/**
 * Resources known but off by default: alpha versions and new betas, served only when `--runtime-config` enables
 * them (document 1 §Versioning; see registry/runtime-config.ts).
 */
export const optionalResources: readonly ServedResource[] = builtinResources.filter((r) => !servedByDefault(r));
