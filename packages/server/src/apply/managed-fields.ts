/**
 * `metadata.managedFields` read into a map of managers and written back, as kube-apiserver's managedfields package
 * does: a manager is identified by name, operation, subresource and (for `Update` only) apiVersion; entries are
 * validated (operation `Apply` or `Update`, an apiVersion, `fieldsType: FieldsV1`); on output, empty sets are left
 * out and entries are sorted by operation, time, manager, apiVersion and subresource. At most ten `Update` managers
 * are kept: the oldest are merged into one `ancient-changes` entry per apiVersion.
 */
import { fail, ok, type ManagedFieldsEntry, type Result } from '@svc-apiserver/api';
import { fromFieldsV1Steps, isEmpty, toFieldsV1Steps, union, type PathSet } from './path-set.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

/** One manager's record. */
export interface ManagerRecord {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource: string;
  /** RFC 3339; absent when never stamped. */
  readonly time?: string;
  readonly fields: PathSet;
  /**
   * The FieldsV1 this record's `fields` were read from, written back as it is while `fields` is that same set (a
   * large set costs far more to write out than to compare).
   */
  readonly read?: { readonly fields: PathSet; readonly fieldsV1: Record<string, unknown> };
}

/** Managers by identifier. */
export type Managers = Map<string, ManagerRecord>;

/** kube's DefaultMaxUpdateManagers. */
export const maxUpdateManagers = 10;

/** The manager name old Update entries are merged into. */
export const ancientChangesManager = 'ancient-changes';

/** BuildManagerIdentifier: the entry without fields and time (and without apiVersion for Apply). */
export function managerIdentifier(r: Pick<ManagerRecord, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  // The text JSON.stringify gives for {manager, operation, apiVersion (Update only), subresource (when set)}, built
  // without the object and its spreads: every write computes identifiers. Absent values are left out as
  // JSON.stringify leaves them out (entries read from clients may lack a manager).
  let s = '';
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined) s += `${s === '' ? '' : ','}"${name}":${JSON.stringify(value)}`;
  };
  add('manager', r.manager);
  add('operation', r.operation);
  if (r.operation === 'Update') add('apiVersion', r.apiVersion);
  if (r.subresource) add('subresource', r.subresource);
  return `{${s}}`;
}

/** Reads managedFields (absent → no managers). */
export function decodeManagedFields(entries: unknown): Result<Managers, string> {
  return runSteps(decodeManagedFieldsSteps(entries));
}

/** {@link decodeManagedFields} in steps (see limits/turn-budget.ts). */
export function* decodeManagedFieldsSteps(entries: unknown): Steps<Result<Managers, string>> {
  const out: Managers = new Map();
  if (entries === undefined || entries === null) return ok(out);
  if (!Array.isArray(entries)) return fail('managedFields must be a list');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as ManagedFieldsEntry | null;
    if (typeof e !== 'object' || e === null) return fail(`managed fields entry ${i} is not an object`);
    if (e.operation !== 'Apply' && e.operation !== 'Update') return fail('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion === '') return fail('apiVersion must not be empty');
    if (e.fieldsType === undefined || (e.fieldsType as string) === '') return fail(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') return fail(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const fields = yield* fromFieldsV1Steps(e.fieldsV1 ?? {});
    if (!fields.ok) return fail(`error decoding fields in managed fields entry ${i}: ${fields.error}`);
    const record: ManagerRecord = {
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      subresource: typeof e.subresource === 'string' ? e.subresource : '',
      ...(typeof e.time === 'string' ? { time: e.time } : {}),
      fields: fields.value,
      read: { fields: fields.value, fieldsV1: (e.fieldsV1 ?? {}) as Record<string, unknown> },
    };
    out.set(managerIdentifier(record), record);
  }
  return ok(out);
}

/** isResetManagedFields: a non-empty list whose every entry is empty (`[{}]`) asks to clear ownership. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries) || entries.length === 0) return false;
  return entries.every((e) => typeof e === 'object' && e !== null && !Array.isArray(e) && Object.keys(e).length === 0);
}

const seconds = (time: string | undefined): number => (time === undefined ? 0 : Math.floor(Date.parse(time) / 1000) || 0);

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Writes managers back as managedFields entries, sorted as kube-apiserver sorts them; empty sets are omitted. */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  return runSteps(encodeManagedFieldsSteps(managers));
}

/** {@link encodeManagedFields} in steps (see limits/turn-budget.ts). */
export function* encodeManagedFieldsSteps(managers: Managers): Steps<ManagedFieldsEntry[]> {
  const records = [...managers.values()].filter((r) => !isEmpty(r.fields));
  records.sort((p, q) =>
    compareStrings(p.operation, q.operation) || seconds(p.time) - seconds(q.time) || compareStrings(p.manager, q.manager)
    || compareStrings(p.apiVersion, q.apiVersion) || compareStrings(p.subresource, q.subresource));
  const entries: ManagedFieldsEntry[] = [];
  for (const r of records) {
    const entry: ManagedFieldsEntry = { manager: r.manager, operation: r.operation, apiVersion: r.apiVersion };
    if (r.time !== undefined) entry.time = r.time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = r.read !== undefined && r.read.fields === r.fields ? r.read.fieldsV1 : yield* toFieldsV1Steps(r.fields);
    if (r.subresource) entry.subresource = r.subresource;
    entries.push(entry);
  }
  return entries;
}

/**
 * capUpdateManagers: with more than `max` Update managers, the oldest (by time, then identifier) are merged into
 * one `ancient-changes` bucket per apiVersion until `max` remain; the bucket takes the time of the newest merged.
 */
export function capUpdateManagers(managers: Managers, max = maxUpdateManagers): Managers {
  // Nearly every write has far fewer managers than the cap: count them before building any list.
  let count = 0;
  for (const r of managers.values()) if (r.operation === 'Update') count++;
  if (count <= max) return managers;
  const updaters = [...managers.entries()].filter(([, r]) => r.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return managers;
  updaters.sort((a, b) => seconds(managers.get(a)!.time) - seconds(managers.get(b)!.time) || compareStrings(a, b));
  const out: Managers = new Map(managers);
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const record = out.get(id)!;
    const bucketRecord = { manager: ancientChangesManager, operation: 'Update' as const, apiVersion: record.apiVersion, subresource: '' };
    const bucket = managerIdentifier(bucketRecord);
    const first = firstOfVersion.get(record.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(record.apiVersion, id);
      continue;
    }
    let existing = out.get(bucket);
    if (existing === undefined) {
      existing = out.get(first)!;
      out.delete(first);
    }
    out.delete(id);
    out.set(bucket, { ...bucketRecord, fields: union(existing.fields, record.fields), ...(record.time !== undefined ? { time: record.time } : {}) });
    length--;
  }
  return out;
}
