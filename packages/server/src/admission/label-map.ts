/**
 * Label maps as kube's labels.Set helpers treat them: the `k=v,k2=v2` form of node selectors
 * (labels.ConvertSelectorToLabelsMap), conflicts between two maps, and merging.
 */
import { fail, labelKeyError, labelValueError, ok, type Result } from '@svc-apiserver/api';

/** Parses `k=v,k2==v2` into a map; a malformed entry is an error message. */
export function parseLabelMap(text: string): Result<Record<string, string>, string> {
  const out: Record<string, string> = {};
  if (text.trim() === '') return ok(out);
  for (const part of text.split(',')) {
    const m = /^([^=!]+)==?(.*)$/.exec(part.trim());
    if (m === null) return fail(`invalid selector: ${text}`);
    const key = m[1]!.trim();
    const value = m[2]!.trim();
    const bad = labelKeyError(key) ?? labelValueError(value);
    if (bad !== undefined) return fail(`invalid selector: ${text}: ${bad}`);
    out[key] = value;
  }
  return ok(out);
}

/** True when a key is in both maps with different values (labels.Conflicts). */
export function labelsConflict(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  return Object.entries(a).some(([k, v]) => b[k] !== undefined && b[k] !== v);
}

/** True when every entry of `subset` is in `superset` (an empty superset allows everything). */
export function labelsWithin(subset: Readonly<Record<string, string>>, superset: Readonly<Record<string, string>>): boolean {
  if (Object.keys(superset).length === 0) return true;
  return Object.entries(subset).every(([k, v]) => superset[k] === v);
}
