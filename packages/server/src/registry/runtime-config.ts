/**
 * `--runtime-config` (document 1 §Groups, kube-apiserver's resourceconfig): comma-separated `<key>[=<value>]`
 * entries, a missing value meaning `true`. Keys: `api/all`, `api/ga`, `api/beta`, `api/alpha` (every version of
 * that level), `<group>/<version>` (core: `v1` or `api/v1`), `<group>/<version>/<resource>`. Broader keys apply
 * first, narrower ones override them. Without an entry a version is served unless it is alpha.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { ServedResource } from './served-resources.js';
import { versionLevel } from './version-level.js';

/** One parsed entry. */
export interface RuntimeConfigEntry {
  readonly key: string;
  readonly enabled: boolean;
}

/** Parses the flag's entries (already split at commas). */
export function parseRuntimeConfig(entries: readonly string[]): Result<RuntimeConfigEntry[], string> {
  const out: RuntimeConfigEntry[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const value = eq < 0 ? 'true' : entry.slice(eq + 1).trim();
    if (value !== 'true' && value !== 'false') return fail(`invalid value of ${key}: ${value}, err: must be true or false`);
    if (key === '') return fail(`--runtime-config: empty key in ${JSON.stringify(entry)}`);
    out.push({ key: key.replace(/^\//, ''), enabled: value === 'true' });
  }
  return ok(out);
}

/** `group/version` as a runtime-config key names it (`v1` for the core group). */
function gvKey(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * The served set: every candidate that is on by default (`defaultOn`) or enabled by an entry, minus those an
 * entry disables. Entries naming no known group-version are an error, as in kube-apiserver.
 */
export function applyRuntimeConfig(
  candidates: readonly ServedResource[],
  defaultOn: (r: ServedResource) => boolean,
  entries: readonly RuntimeConfigEntry[],
  names: Names,
  knownGroupVersions: readonly string[] = [],
): Result<ServedResource[], string> {
  const known = new Set(knownGroupVersions.map((gv) => gv.replace(/^api\//, '')));
  for (const c of candidates) known.add(gvKey(names.group(c.groupKey), c.version));
  const levels = new Set(['api/all', 'api/ga', 'api/beta', 'api/alpha', 'api/legacy']);
  for (const e of entries) {
    if (levels.has(e.key)) continue;
    const key = e.key.replace(/^api\//, '');
    const parts = key.split('/');
    // A group-version, or a group-version plus one resource (the core group has no group part).
    const gv = parts.length === 1 ? key : parts.length === 2 ? (known.has(key) ? key : parts[0]!) : parts.slice(0, 2).join('/');
    if (!known.has(gv)) return fail(`--runtime-config: unknown api group version ${JSON.stringify(e.key)}`);
  }
  const served: ServedResource[] = [];
  for (const c of candidates) {
    const group = names.group(c.groupKey);
    const gv = gvKey(group, c.version);
    const level = versionLevel(c.version);
    let on = defaultOn(c);
    // Broad to narrow: all, then the level, then the group-version, then the resource.
    for (const pass of [
      (k: string) => k === 'api/all',
      (k: string) => k === `api/${level}` || (k === 'api/legacy' && group === ''),
      (k: string) => k === gv || k === `api/${gv}`,
      (k: string) => k === `${gv}/${c.resource}` || k === `api/${gv}/${c.resource}`,
    ]) {
      for (const e of entries) if (pass(e.key)) on = e.enabled;
    }
    if (on) served.push(c);
  }
  return ok(served);
}
