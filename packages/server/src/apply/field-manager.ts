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
import { fail, ok, setOwn, type Result } from '@svc-apiserver/api';
import { conflictMessageFor, type FieldConflict } from './conflicts.js';
import { compareSteps, itemsPerStep, type Comparison } from './compare.js';
import { fieldSetSteps } from './field-set.js';
import { isFieldElement } from './field-path.js';
import {
  capUpdateManagers, decodeManagedFieldsSteps, encodeManagedFieldsSteps, isResetManagedFields,
  managerIdentifier, type ManagerRecord, type Managers,
} from './managed-fields.js';
import { mergeSteps } from './merge.js';
import {
  difference, emptySet, filterTop, intersection, isEmpty, setOf, setsEqual, sortedPaths, union, type PathSet,
} from './path-set.js';
import { removeItems } from './remove-items.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemSchemaOf, jsonEqual, listKindOf, type Schema,
} from './schema-view.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

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
  /**
   * The objects are of a built-in kind, which kube compares as Go values: their non-pointer structs and fields
   * without omitempty always exist, so no write adds them (compare.ts). Custom objects are maps.
   */
  readonly typed: boolean;
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

/** What an endpoint resets: status through the main resource, all but status and metadata through /status. */
type Reset = (set: PathSet) => PathSet;

const statusEndpointKeeps = new Set(['f:status', 'f:metadata', 'f:apiVersion', 'f:kind']);

function resetBy(scope: FieldManagerScope): Reset {
  if (scope.subresource === 'status') return (set) => filterTop(set, (el) => statusEndpointKeeps.has(el));
  if (scope.subresource === '' && scope.hasStatus) return (set) => filterTop(set, (el) => el !== 'f:status');
  return (set) => set;
}

function excludeFrom(c: Comparison, reset: Reset): Comparison {
  return { added: reset(c.added), modified: reset(c.modified), removed: reset(c.removed) };
}

/** The object's value as field management sees it: without managedFields. */
function valueOf(object: ManagedObject | undefined): Record<string, unknown> {
  if (object === undefined) return {};
  const meta = object.metadata;
  if (!isObject(meta) || !('managedFields' in meta)) return object;
  const { managedFields: _m, ...rest } = meta;
  return { ...object, metadata: rest };
}

/**
 * Drops `null` map values, as the typed object kube-apiserver converts back to omits them: a full copy (the one
 * copy an apply makes: its merge shares what it takes whole with the live object and the configuration), and
 * whether any null was dropped.
 */
function* dropNulls(value: unknown, count = { visited: 0, dropped: false }): Generator<void, unknown, void> {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (++count.visited % itemsPerStep === 0) yield;
      out.push(typeof item === 'object' && item !== null ? yield* dropNulls(item, count) : item);
    }
    return out;
  }
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (++count.visited % itemsPerStep === 0) yield;
    const v = value[k];
    if (v === null) count.dropped = true;
    else setOwn(out, k, typeof v === 'object' ? yield* dropNulls(v, count) : v);
  }
  return out;
}

/**
 * ReconcileFieldSetWithSchema: a path reaching into what is now atomic is cut back to the atomic node. `cut` tells
 * the caller that the node's own path becomes a member.
 */
function reconcileNode(node: PathSet, schema: Schema, depth: number): { readonly node: PathSet; readonly cut: boolean } {
  const cutsField = isAtomicMap(schema) && depth > 0;
  const cutsItem = listKindOf(schema).kind === 'atomic';
  const qualifies = (el: string): boolean => (isFieldElement(el) ? cutsField : cutsItem);
  let cut = false;
  let members: Set<string> | undefined;
  for (const el of node.members) {
    if (!qualifies(el)) continue;
    cut = true;
    members ??= new Set(node.members);
    members.delete(el);
  }
  let children: Map<string, PathSet> | undefined;
  for (const [el, child] of node.children) {
    if (qualifies(el)) {
      cut = true;
      children ??= new Map(node.children);
      children.delete(el);
      continue;
    }
    const inner = reconcileNode(child, isFieldElement(el) ? fieldSchemaOf(schema, el.slice(2)) : itemSchemaOf(schema), depth + 1);
    if (inner.node === child && !inner.cut) continue;
    children ??= new Map(node.children);
    if (inner.cut) {
      members ??= new Set(node.members);
      members.add(el);
    }
    if (isEmpty(inner.node)) children.delete(el);
    else children.set(el, inner.node);
  }
  if (members === undefined && children === undefined) return { node, cut };
  return { node: { members: members ?? node.members, children: children ?? node.children }, cut };
}

/** ReconcileFieldSetWithSchema: a path reaching into what is now atomic is cut back to the atomic node. */
export function reconcileWithSchema(set: PathSet, schema: Schema): PathSet {
  return reconcileNode(set, schema, 0).node;
}

/** EnsureNamedFieldsAreMembers: every declared struct field on the way to a member becomes a member too. */
function withNamedFields(set: PathSet, schema: Schema): PathSet {
  let members: Set<string> | undefined;
  let children: Map<string, PathSet> | undefined;
  for (const [el, child] of set.children) {
    const field = isFieldElement(el);
    if (field && !set.members.has(el) && isNamedField(schema, el.slice(2))) {
      members ??= new Set(set.members);
      members.add(el);
    }
    const inner = withNamedFields(child, field ? fieldSchemaOf(schema, el.slice(2)) : itemSchemaOf(schema));
    if (inner !== child) {
      children ??= new Map(set.children);
      children.set(el, inner);
    }
  }
  if (members === undefined && children === undefined) return set;
  return { members: members ?? set.members, children: children ?? set.children };
}

function withFields(record: ManagerRecord, fields: PathSet): ManagerRecord {
  return { ...record, fields };
}

function prepareManagers(managers: Managers, schema: Schema): Managers {
  const out: Managers = new Map();
  for (const [id, r] of managers) {
    const fields = difference(reconcileWithSchema(r.fields, schema), strippedFields);
    if (!isEmpty(fields)) out.set(id, withFields(r, fields));
  }
  return out;
}

function finishManagers(managers: Managers): Managers {
  const out: Managers = new Map();
  for (const [id, r] of managers) {
    const fields = difference(r.fields, strippedFields);
    if (!isEmpty(fields)) out.set(id, withFields(r, fields));
  }
  return capUpdateManagers(out);
}

/** The object with its managers written into metadata.managedFields (removed when there are none). */
function* withManagedFields(value: Record<string, unknown>, managers: Managers): Steps<ManagedObject> {
  const entries = yield* encodeManagedFieldsSteps(managers);
  const meta = isObject(value.metadata) ? { ...value.metadata } : {};
  delete meta.managedFields;
  if (entries.length > 0) meta.managedFields = entries;
  return { ...value, metadata: meta };
}

/**
 * Structured-merge-diff's `update` step: with the comparison of a write, other managers lose what the write
 * changed (their conflicts, taken by force) and what it removed. Returns the conflicts found when `conflicts` asks
 * for them (an apply without force); an update and a forced apply take the changed fields without listing them.
 */
function* takeChanged(
  managers: Managers, self: string, c: Comparison, conflicts: boolean,
): Steps<{ managers: Managers; conflicts: FieldConflict[] }> {
  const changed = union(c.modified, c.added);
  const found: FieldConflict[] = [];
  const out: Managers = new Map();
  for (const id of [...managers.keys()].sort()) {
    // Each manager's sets can be as large as the object: one manager at a step (limits/turn-budget.ts).
    yield;
    const r = managers.get(id)!;
    if (id === self) {
      out.set(id, r);
      continue;
    }
    let taken = changed;
    if (conflicts) {
      taken = intersection(r.fields, changed);
      for (const path of sortedPaths(taken)) found.push({ manager: id, path });
    }
    const fields = difference(difference(r.fields, taken), c.removed);
    if (!isEmpty(fields)) out.set(id, withFields(r, fields));
  }
  return { managers: out, conflicts: found };
}

/** Managers of an update: new object's managedFields, a reset, or (when those are absent or invalid) the live ones. */
function* managersOfUpdate(live: ManagedObject | undefined, next: ManagedObject, scope: FieldManagerScope): Steps<Result<Managers, string>> {
  const liveEntries = live?.metadata?.managedFields;
  if (scope.subresource !== '') return yield* decodeManagedFieldsSteps(liveEntries);
  const newEntries = next.metadata?.managedFields;
  if (isResetManagedFields(newEntries)) return ok(new Map() as Managers);
  const own = yield* decodeManagedFieldsSteps(newEntries);
  if (own.ok && own.value.size > 0) return own;
  return yield* decodeManagedFieldsSteps(liveEntries);
}

function* updateManagers(
  liveValue: unknown, nextValue: unknown, managers: Managers, manager: string, scope: FieldManagerScope,
): Steps<Managers> {
  const reset = resetBy(scope);
  const c = excludeFrom(yield* compareSteps(liveValue, nextValue, scope.schema, scope.typed), reset);
  const self = managerIdentifier({ manager, operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const { managers: out } = yield* takeChanged(managers, '', c, false);
  const gained = reset(difference(union(c.modified, c.added), strippedFields));
  if (isEmpty(gained)) return out;
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
  return runSteps(updateManagedFieldsSteps(live, next, manager, scope));
}

/** {@link updateManagedFields} in steps (see limits/turn-budget.ts). */
export function* updateManagedFieldsSteps(
  live: ManagedObject | undefined, next: ManagedObject, manager: string, scope: FieldManagerScope,
): Steps<ManagedObject> {
  const decoded = yield* managersOfUpdate(live, next, scope);
  const nextValue = valueOf(next);
  if (!decoded.ok) return yield* withManagedFields(nextValue, new Map());
  const managers = yield* updateManagers(valueOf(live), nextValue, prepareManagers(decoded.value, scope.schema), manager, scope);
  return yield* withManagedFields(nextValue, finishManagers(managers));
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
  return runSteps(applyConfigurationSteps(live, config, manager, force, scope));
}

/**
 * {@link applyConfiguration} in steps (see limits/turn-budget.ts): a configuration of a hundred thousand keys is
 * merged, compared and recorded a few thousand keys at a step.
 */
export function* applyConfigurationSteps(
  live: ManagedObject | undefined, config: ManagedObject, manager: string, force: boolean, scope: FieldManagerScope,
): Steps<Result<ManagedObject, ApplyFailure>> {
  const decoded = yield* decodeManagedFieldsSteps(live?.metadata?.managedFields);
  if (!decoded.ok) return fail({ reason: 'invalid-managed-fields', message: `failed to decode managed fields: ${decoded.error}` });
  const schema = scope.schema;
  const liveValue = valueOf(live);
  let managers = prepareManagers(decoded.value, schema);
  if (live !== undefined && managers.size === 0) {
    // skipNonAppliedManager: what exists before the first apply belongs to its writers, named as one.
    managers = prepareManagers(yield* updateManagers({}, liveValue, managers, beforeFirstApplyManager, scope), schema);
  }
  const reset = resetBy(scope);
  const self = managerIdentifier({ manager, operation: 'Apply', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const lastSet = managers.get(self)?.fields;

  const merged = (yield* mergeSteps(liveValue, config, schema)) as Record<string, unknown>;
  const first = yield* takeChanged(managers, self, excludeFrom(yield* compareSteps(liveValue, merged, schema, scope.typed), reset), !force);
  if (!force && first.conflicts.length > 0) {
    return fail({ reason: 'conflict', conflicts: first.conflicts, message: conflictMessageFor(first.conflicts) });
  }
  managers = first.managers;
  const fresh = reset(difference(yield* fieldSetSteps(config, schema), strippedFields));
  yield;
  const previous = managers.get(self);
  // The same fields as last time keep last time's set, so that its FieldsV1 is written back as it was read.
  const applied = previous !== undefined && setsEqual(previous.fields, fresh) ? previous.fields : fresh;
  managers.set(self, {
    manager, operation: 'Apply', apiVersion: scope.apiVersion, subresource: scope.subresource,
    ...(previous?.time !== undefined ? { time: previous.time } : {}), fields: applied,
    ...(previous?.read !== undefined ? { read: previous.read } : {}),
  });
  yield;
  const kept = yield* prune(merged, managers, lastSet, applied, schema);
  const nulls = { visited: 0, dropped: false };
  const pruned = (yield* dropNulls(kept, nulls)) as Record<string, unknown>;
  // What the write changed, again: unless pruning or dropping nulls changed the merged object, it is what the first
  // comparison found, which the managers have taken in already.
  if (kept !== merged || nulls.dropped) {
    managers = (yield* takeChanged(managers, self, excludeFrom(yield* compareSteps(liveValue, pruned, schema, scope.typed), reset), false)).managers;
  }
  yield;
  const entry = managers.get(self);
  if (entry !== undefined && (live === undefined || !jsonEqual(liveValue, pruned))) managers.set(self, { ...entry, time: scope.now() });
  yield;
  return ok(yield* withManagedFields(pruned, finishManagers(managers)));
}

/**
 * Updater.prune: fields the applier owned last time, that the new configuration and every other manager left, are
 * removed from the merged object (with structured-merge-diff's exact set formulas: remove the last set, add back
 * what anyone owns, add back what was never the applier's). When the configuration still applies all it applied
 * last time there is nothing to remove.
 */
function* prune(
  merged: Record<string, unknown>, managers: Managers, lastSet: PathSet | undefined, applied: PathSet, schema: Schema,
): Steps<Record<string, unknown>> {
  // Nothing applied last time is left out now: nothing to prune (and no need to list the merged object's fields).
  if (lastSet === undefined || isEmpty(difference(lastSet, applied))) return merged;
  const named = (s: PathSet): PathSet => withNamedFields(s, schema);
  const last = named(lastSet);
  let owned: PathSet = emptySet;
  for (const r of managers.values()) owned = union(owned, r.fields);
  const mergedSet = named(yield* fieldSetSteps(merged, schema));
  const pruned = removeItems(merged, last, schema);
  const prunedSet = named(yield* fieldSetSteps(pruned, schema));
  const ownedBack = removeItems(merged, difference(mergedSet, union(prunedSet, named(owned))), schema);
  const ownedBackSet = named(yield* fieldSetSteps(ownedBack, schema));
  yield;
  return removeItems(merged, intersection(difference(mergedSet, ownedBackSet), last), schema);
}
