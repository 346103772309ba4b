/**
 * How a per-kind table covers the served resources against a reference set of kube-apiserver's (the kinds kube
 * gives a strategy, the kinds it prints with columns of their own), for the coverage tests of those tables.
 */
import { entryFor, groupResourceKey, type GroupResourceKey, type ResourceTable } from '../schema/resource-keys.js';
import type { ServedResource } from '../registry/served-resources.js';

/** The served resources the reference names but the table lacks, and those the table has but the reference does not. */
export function tableCoverage<T>(
  table: ResourceTable<T>, reference: ReadonlySet<GroupResourceKey>, served: readonly ServedResource[],
): { readonly missing: string[]; readonly extra: string[] } {
  const missing: string[] = [];
  const extra: string[] = [];
  for (const r of served) {
    const key = groupResourceKey(r.groupKey, r.resource);
    const has = entryFor(table, r.groupKey, r.version, r.resource) !== undefined;
    const expected = reference.has(key as GroupResourceKey);
    if (expected && !has) missing.push(key);
    if (!expected && has) extra.push(key);
  }
  return { missing, extra };
}
