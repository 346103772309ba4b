/**
 * Field management of writes (document 1 §Server-side apply; kube-apiserver's FieldManager over
 * structured-merge-diff's Updater), written as set algebra over field paths:
 *
 * - update (POST, PUT, non-apply PATCH): the writer's `Update` entry gains the fields it added or changed; every
 *   other manager loses them and loses the removed fields. Never fails.
 * - apply: merge the configuration into the live object; the fields it adds or changes that other managers own are
 *   conflicts (409, unless forced: then they move to the applier); the applier's set becomes the configuration's
 *   fields; fields the applier applied last time, left out now and owned by nobody, are removed from the object.
 *
 * Around that, as kube does: the managedFields reset `[{}]` (processed before the write, so the writer owns what it
 * changes), system metadata never owned (`metadata.name`, `uid`, ...), fields the endpoint resets never owned
 * (`status` through the main resource, everything but status and metadata through `/status`), sets reconciled with
 * the schema (an owner of part of what is now atomic owns all of it), the first apply to an object without managed
 * fields giving what exists to `before-first-apply`, timestamps on changed entries, and the cap of ten Update
 * managers.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { conflictMessageFor, type FieldConflict } from './conflicts.js';
import { compare, type Comparison } from './compare.js';
import { fieldSetOf } from './field-set.js';
import { childPath, pathElements, pathFromElements, rootPath } from './field-path.js';
import {
  capUpdateManagers, decodeManagedFields, encodeManagedFields, isResetManagedFields, managerIdentifier,
  type ManagerRecord, type Managers,
} from './managed-fields.js';
import { merge } from './merge.js';
import { difference, intersection, setOf, sortedPaths, union, type PathSet } from './path-set.js';
import { removeItems } from './remove-items.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemSchemaOf, jsonEqual, listKindOf, type Schema,
} from './schema-view.js';

/** A managed object: any JSON object with optional metadata.managedFields. */
export type ManagedObject = Record<string, unknown> & { metadata?: Record<string, unknown> & { managedFields?: unknown } };

/** The endpoint a write goes through. */
export interface FieldManagerScope {
  /** The object's type. */
  readonly schema: Schema;
  /** The endpoint's group/version (`v1`, `coordination.svc.io/v1`), recorded on entries. */
  readonly apiVersion: string;
  /** `''` or the subresource written through (`status`). */
  readonly subresource: string;
  /** Whether the endpoint has a status subresource (then the main resource resets `status`). */
  readonly hasStatus: boolean;
  /** The current time, RFC 3339. */
  readonly now: () => string;
}

/** The manager kube names for what existed before the first apply to an object without managed fields. */
export const beforeFirstApplyManager = 'before-first-apply';

/** Metadata no manager ever owns (kube's stripMeta set). */
const strippedFields: PathSet = setOf(
  ['f:apiVersion'], ['f:kind'], ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((f) => ['f:metadata', `f:${f}`]),
);

/** The fields an endpoint resets: status through the main resource, all but status and metadata through /status. */
function resetBy(scope: FieldManagerScope): (path: string) => boolean {
  if (scope.subresource === 'status') {
    return (path) => {
      const top = path.split('\u0000', 1)[0]!;
      return top !== 'f:status' && top !== 'f:metadata' && top !== 'f:apiVersion' && top !== 'f:kind';
    };
  }
  if (scope.subresource === '' && scope.hasStatus) return (path) => path === 'f:status' || path.startsWith('f:status\u0000');
  return () => false;
}

function without(set: PathSet, drop: (path: string) => boolean): PathSet {
  let out: Set<string> | undefined;
  for (const p of set) {
    if (drop(p)) {
      out ??= new Set(set);
      out.delete(p);
    }
  }
  return out ?? set;
}

function excludeFrom(c: Comparison, drop: (path: string) => boolean): Comparison {
  return { added: without(c.added, drop), modified: without(c.modified, drop), removed: without(c.removed, drop) };
}

/** The object's value as field management sees it: without managedFields. */
function valueOf(object: ManagedObject | undefined): Record<string, unknown> {
  if (object === undefined) return {};
  const meta = object.metadata;
  if (!isObject(meta) || !('managedFields' in meta)) return object;
  const { managedFields: _m, ...rest } = meta;
  return { ...object, metadata: rest };
}

/** Drops `null` map values, as the typed object kube-apiserver converts back to omits them. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}

/** ReconcileFieldSetWithSchema: a path reaching into what is now atomic is cut back to the atomic node. */
export function reconcileWithSchema(set: PathSet, schema: Schema): PathSet {
  let out: Set<string> | undefined;
  for (const path of set) {
    const els = pathElements(path);
    let node = schema;
    let cut = -1;
    for (let i = 0; i < els.length; i++) {
      const el = els[i]!;
      if (el.startsWith('f:')) {
        if (isAtomicMap(node) && i > 0) {
          cut = i;
          break;
        }
        node = fieldSchemaOf(node, el.slice(2));
      } else {
        if (listKindOf(node).kind === 'atomic') {
          cut = i;
          break;
        }
        node = itemSchemaOf(node);
      }
    }
    if (cut < 0) continue;
    out ??= new Set(set);
    out.delete(path);
    out.add(pathFromElements(els.slice(0, cut)));
  }
  return out ?? set;
}

/** EnsureNamedFieldsAreMembers: every declared struct field on the way to a member becomes a member too. */
function withNamedFields(set: PathSet, schema: Schema): PathSet {
  const out = new Set(set);
  for (const path of set) {
    let node = schema;
    let at = rootPath;
    for (const el of pathElements(path)) {
      at = childPath(at, el);
      if (el.startsWith('f:')) {
        const name = el.slice(2);
        if (isNamedField(node, name)) out.add(at);
        node = fieldSchemaOf(node, name);
      } else {
        node = itemSchemaOf(node);
      }
    }
  }
  return out;
}

function withFields(record: ManagerRecord, fields: PathSet): ManagerRecord {
  return { ...record, fields };
}

function prepareManagers(managers: Managers, schema: Schema): Managers {
  const out: Managers = new Map();
  for (const [id, r] of managers) {
    const fields = difference(reconcileWithSchema(r.fields, schema), strippedFields);
    if (fields.size > 0) out.set(id, withFields(r, fields));
  }
  return out;
}

function finishManagers(managers: Managers): Managers {
  const out: Managers = new Map();
  for (const [id, r] of managers) {
    const fields = difference(r.fields, strippedFields);
    if (fields.size > 0) out.set(id, withFields(r, fields));
  }
  return capUpdateManagers(out);
}

/** The object with its managers written into metadata.managedFields (removed when there are none). */
function withManagedFields(value: Record<string, unknown>, managers: Managers): ManagedObject {
  const entries = encodeManagedFields(managers);
  const meta = isObject(value.metadata) ? { ...value.metadata } : {};
  delete meta.managedFields;
  if (entries.length > 0) meta.managedFields = entries;
  return { ...value, metadata: meta };
}

/**
 * Structured-merge-diff's `update` step: with the comparison of a write, other managers lose what the write
 * changed (their conflicts, taken by force) and what it removed. Returns the conflicts found.
 */
function takeChanged(managers: Managers, self: string, c: Comparison): { managers: Managers; conflicts: FieldConflict[] } {
  const changed = union(c.modified, c.added);
  const conflicts: FieldConflict[] = [];
  const out: Managers = new Map();
  for (const id of [...managers.keys()].sort()) {
    const r = managers.get(id)!;
    if (id === self) {
      out.set(id, r);
      continue;
    }
    const clash = intersection(r.fields, changed);
    for (const path of sortedPaths(clash)) conflicts.push({ manager: id, path });
    const fields = difference(difference(r.fields, clash), c.removed);
    if (fields.size > 0) out.set(id, withFields(r, fields));
  }
  return { managers: out, conflicts };
}

/** Managers of an update: new object's managedFields, a reset, or (when those are absent or invalid) the live ones. */
function managersOfUpdate(live: ManagedObject | undefined, next: ManagedObject, scope: FieldManagerScope) {
  const liveEntries = live?.metadata?.managedFields;
  if (scope.subresource !== '') return decodeManagedFields(liveEntries);
  const newEntries = next.metadata?.managedFields;
  if (isResetManagedFields(newEntries)) return { ok: true as const, value: new Map() as Managers };
  const own = decodeManagedFields(newEntries);
  if (own.ok && own.value.size > 0) return own;
  return decodeManagedFields(liveEntries);
}

function updateManagers(
  liveValue: unknown, nextValue: unknown, managers: Managers, manager: string, scope: FieldManagerScope,
): Managers {
  const reset = resetBy(scope);
  const c = excludeFrom(compare(liveValue, nextValue, scope.schema), reset);
  const self = managerIdentifier({ manager, operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const { managers: out } = takeChanged(managers, '', c);
  const gained = without(difference(union(c.modified, c.added), strippedFields), reset);
  if (gained.size === 0) return out;
  const previous = out.get(self);
  out.set(self, {
    manager, operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource, time: scope.now(),
    fields: previous === undefined ? gained : union(previous.fields, gained),
  });
  return out;
}

/**
 * FieldManager.UpdateNoErrors: `next` (a create's or update's new object; `live` undefined for a create) with its
 * managedFields recomputed for `manager`. Unreadable managed fields are dropped rather than failing the write.
 */
export function updateManagedFields(live: ManagedObject | undefined, next: ManagedObject, manager: string, scope: FieldManagerScope): ManagedObject {
  const decoded = managersOfUpdate(live, next, scope);
  const nextValue = valueOf(next);
  if (!decoded.ok) return withManagedFields(nextValue, new Map());
  const managers = updateManagers(valueOf(live), nextValue, prepareManagers(decoded.value, scope.schema), manager, scope);
  return withManagedFields(nextValue, finishManagers(managers));
}

/** Why an apply failed: conflicts with other managers, or managedFields that cannot be read. */
export type ApplyFailure =
  | { readonly reason: 'conflict'; readonly conflicts: readonly FieldConflict[]; readonly message: string }
  | { readonly reason: 'invalid-managed-fields'; readonly message: string };

/**
 * FieldManager.Apply: the object after applying `config` (already checked: right apiVersion and kind, no
 * managedFields) for `manager`. `live` is undefined when the apply creates the object.
 */
export function applyConfiguration(
  live: ManagedObject | undefined, config: ManagedObject, manager: string, force: boolean, scope: FieldManagerScope,
): Result<ManagedObject, ApplyFailure> {
  const decoded = decodeManagedFields(live?.metadata?.managedFields);
  if (!decoded.ok) return fail({ reason: 'invalid-managed-fields', message: `failed to decode managed fields: ${decoded.error}` });
  const schema = scope.schema;
  const liveValue = valueOf(live);
  let managers = prepareManagers(decoded.value, schema);
  if (live !== undefined && managers.size === 0) {
    // skipNonAppliedManager: what exists before the first apply belongs to its writers, named as one.
    managers = prepareManagers(updateManagers({}, liveValue, managers, beforeFirstApplyManager, scope), schema);
  }
  const reset = resetBy(scope);
  const self = managerIdentifier({ manager, operation: 'Apply', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const lastSet = managers.get(self)?.fields;

  const merged = merge(liveValue, config, schema) as Record<string, unknown>;
  const first = takeChanged(managers, self, excludeFrom(compare(liveValue, merged, schema), reset));
  if (!force && first.conflicts.length > 0) {
    return fail({ reason: 'conflict', conflicts: first.conflicts, message: conflictMessageFor(first.conflicts) });
  }
  managers = first.managers;
  const applied = without(difference(fieldSetOf(config, schema), strippedFields), reset);
  const previous = managers.get(self);
  managers.set(self, {
    manager, operation: 'Apply', apiVersion: scope.apiVersion, subresource: scope.subresource,
    ...(previous?.time !== undefined ? { time: previous.time } : {}), fields: applied,
  });
  const pruned = dropNulls(prune(merged, managers, lastSet, schema)) as Record<string, unknown>;
  managers = takeChanged(managers, self, excludeFrom(compare(liveValue, pruned, schema), reset)).managers;
  const entry = managers.get(self);
  if (entry !== undefined && (live === undefined || !jsonEqual(liveValue, pruned))) managers.set(self, { ...entry, time: scope.now() });
  return ok(withManagedFields(pruned, finishManagers(managers)));
}

/**
 * Updater.prune: fields the applier owned last time, that the new configuration and every other manager left, are
 * removed from the merged object (with structured-merge-diff's exact set formulas: remove the last set, add back
 * what anyone owns, add back what was never the applier's).
 */
function prune(merged: Record<string, unknown>, managers: Managers, lastSet: PathSet | undefined, schema: Schema): Record<string, unknown> {
  if (lastSet === undefined || lastSet.size === 0) return merged;
  const named = (s: PathSet): PathSet => withNamedFields(s, schema);
  const last = named(lastSet);
  let owned: PathSet = new Set();
  for (const r of managers.values()) owned = union(owned, r.fields);
  const mergedSet = named(fieldSetOf(merged, schema));
  const pruned = removeItems(merged, last, schema);
  const prunedSet = named(fieldSetOf(pruned, schema));
  const ownedBack = removeItems(merged, difference(mergedSet, union(prunedSet, named(owned))), schema);
  const ownedBackSet = named(fieldSetOf(ownedBack, schema));
  return removeItems(merged, intersection(difference(mergedSet, ownedBackSet), last), schema);
}
