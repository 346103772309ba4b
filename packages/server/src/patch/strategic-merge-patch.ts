/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), applied the way kube-apiserver 1.27 applies it
 * (k8s.io/apimachinery/pkg/util/strategicpatch, `StrategicMergeMapPatch`, server-side options: parallel lists are
 * merged and unmatched nulls ignored).
 *
 * Written by hand: no JavaScript library implements Kubernetes' strategic merge patch. The structure follows the
 * upstream apply path step by step so that results, list order and errors match it; where upstream depends on Go's
 * random map order, patch keys are processed in their order in the patch.
 *
 * Semantics in short: objects merge recursively and `null` deletes a key; a list whose field has patch strategy
 * `merge` merges by `patchMergeKey` (lists of objects) or as a set (lists of scalars), any other list is replaced;
 * directives: `$patch` (`replace`, `delete`; in a list of objects an item `{$patch: delete, <key>: v}` deletes that
 * item and an item `{$patch: replace}` replaces the list), `$retainKeys`, `$setElementOrder/<field>`,
 * `$deleteFromPrimitiveList/<field>`. Like upstream, `$patch: merge` is rejected, and directives inside a value that
 * is taken whole (a new key, a replaced list) are kept as written, to be reported as unknown fields by decoding.
 *
 * The merge is written once, in steps ({@link Steps}, limits/turn-budget.ts): every walk over list items or map keys
 * counts what it visits and may yield every {@link entriesPerStep} of them, so a patch of tens of thousands of list
 * items can give the event loop back between slices ({@link strategicMergePatchSteps}); {@link strategicMergePatch}
 * runs the same steps whole.
 */
import { ok, setOwn, type Result } from '@svc-apiserver/api';
import { entriesPerStep, runSteps, type Steps } from '../limits/turn-budget.js';
import { permissivePatchSchema, type PatchSchema } from './patch-schema.js';
import { goStableSortSteps } from './go-stable-sort.js';

/**
 * HTTP status kube-apiserver answers for a failed strategic merge patch (`interpretStrategicMergePatchError`):
 * 400 BadRequest for malformed directives it recognises, 422 (reason Invalid, message "the server rejected our
 * request due to an error in our request") for lists of lists, and 500 with an empty reason and the error text as
 * message for every other error of the patch package (unknown `$patch`, missing merge key, wrong types, ...).
 */
export type StrategicMergePatchErrorCode = 400 | 422 | 500;

/** Why {@link strategicMergePatch} failed: kube-apiserver's code for it and the patch package's error text. */
export interface StrategicMergePatchError {
  readonly code: StrategicMergePatchErrorCode;
  readonly message: string;
}

/**
 * Applies a strategic merge patch to `original` (a decoded object) under `schema`, like kube-apiserver 1.27's
 * `strategicpatch.StrategicMergeMapPatch`. Pure: neither input is modified (`original` is, when it is `owned`: a
 * private copy the caller made, in slices when large); the value is a new object. A patch that is JSON `null`
 * changes nothing (upstream decodes it into an empty map).
 */
export function strategicMergePatch(original: unknown, patch: unknown, schema: PatchSchema, owned = false): Result<unknown, StrategicMergePatchError> {
  return runSteps(strategicMergePatchSteps(original, patch, schema, owned));
}

/**
 * {@link strategicMergePatch} in steps: the same result, with points between slices of list items and map keys
 * where the caller may give the event loop back (a patch small enough never reaches one).
 */
export function* strategicMergePatchSteps(
  original: unknown,
  patch: unknown,
  schema: PatchSchema,
  owned = false,
): Steps<Result<unknown, StrategicMergePatchError>> {
  work = 0;
  if (patch === null) return ok(owned ? original : yield* cloneJson(original));
  if (!isMap(patch)) {
    const message = `json: cannot unmarshal ${jsonKindName(patch)} into Go value of type map[string]interface {}`;
    return { ok: false, error: { code: 400, message } };
  }
  const target = isMap(original) ? ((owned ? original : yield* cloneJson(original)) as JsonMap) : {};
  try {
    return ok(yield* mergeMap(target, (yield* cloneJson(patch)) as JsonMap, schema));
  } catch (error) {
    if (error instanceof PatchFailure) return { ok: false, error: { code: error.code, message: error.message } };
    throw error;
  }
}

/**
 * The list items and map keys visited since the merge last reached a point where it may yield. One count for the
 * module is enough: a merge in steps runs uninterrupted between two of its yields and every yield leaves the count
 * at zero, so merges running side by side never lengthen one another's steps.
 */
let work = 0;

/** Counts `units` visited; true when the merge has visited {@link entriesPerStep} since it last could yield. */
function due(units = 1): boolean {
  work += units;
  if (work < entriesPerStep) return false;
  work = 0;
  return true;
}

type JsonMap = Record<string, unknown>;

const directiveMarker = '$patch';
const deleteDirective = 'delete';
const replaceDirective = 'replace';
const mergeDirective = 'merge';
const retainKeysDirective = '$retainKeys';
const retainKeysStrategy = 'retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

/**
 * A failure deep inside the recursive merge. It is thrown only within this module and turned into the result at
 * `strategicMergePatch`: the upstream algorithm returns early from a dozen nested helpers, and unwinding by hand
 * through every one of them would bury the logic that has to stay recognisably the same.
 */
class PatchFailure extends Error {
  constructor(
    readonly code: StrategicMergePatchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// The errors of k8s.io/apimachinery/pkg/util/mergepatch, with the status kube-apiserver gives each.
const badPatchFormatForPrimitiveList = () => new PatchFailure(400, 'invalid patch format of primitive list');
const badPatchFormatForRetainKeys = () => new PatchFailure(400, 'invalid patch format of retainKeys');
const badPatchFormatForSetElementOrderList = () => new PatchFailure(400, 'invalid patch format of setElementOrder list');
const noListOfLists = () => new PatchFailure(422, 'lists of lists are not supported');
const fail = (message: string) => new PatchFailure(500, message);
const noMergeKey = (m: JsonMap, key: string) => fail(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
const badArgType = (expected: GoType, actual: unknown) =>
  fail(`expected a ${expected}, but received a ${goTypeName(actual)}`);
const badPatchType = (directive: unknown, m: JsonMap) =>
  fail(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);

/** Merges `patch` into `original` (both owned by this module and modified in place). Mirrors upstream `mergeMap`. */
function* mergeMap(original: JsonMap, patch: JsonMap, schema: PatchSchema): Steps<JsonMap> {
  if (Object.hasOwn(patch, directiveMarker)) return yield* handleDirectiveInMergeMap(patch[directiveMarker], patch);

  if (Object.hasOwn(patch, retainKeysDirective)) yield* applyRetainKeysDirective(original, patch);
  yield* mergePatchIntoOriginal(original, patch, schema);

  for (const patchKey of Object.keys(patch)) {
    if (due()) yield;
    const patchV = patch[patchKey];
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListPrefix)) {
      key = extractKey(patchKey, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }

    // Upstream deletes even for a deletion list (`$deleteFromPrimitiveList/x: null` removes x).
    if (patchV === null) {
      delete original[key];
      continue;
    }
    if (!Object.hasOwn(original, key)) {
      if (!isDeleteList) setOwn(original, key, yield* discardNullValues(patchV));
      continue;
    }
    const originalV = original[key];
    if (goTypeName(originalV) !== goTypeName(patchV)) {
      if (!isDeleteList) setOwn(original, key, yield* discardNullValues(patchV));
      continue;
    }
    if (isMap(originalV) && isMap(patchV)) {
      const field = fieldSchema(schema, key);
      const strategy = patchStrategyOf(field);
      setOwn(original, key, strategy === replaceDirective ? yield* discardNullValues(patchV) : yield* mergeMap(originalV, patchV, field));
    } else if (Array.isArray(originalV) && Array.isArray(patchV)) {
      const field = fieldSchema(schema, key);
      setOwn(original, key, yield* mergeSliceHandler(originalV, patchV, field, isDeleteList));
    } else {
      // Same scalar type: the patch value wins, deletion list or not (upstream does not check here either).
      setOwn(original, key, patchV);
    }
  }
  return original;
}

/** `$patch` on an object: `replace` takes the patch as the whole object, `delete` empties it. */
function* handleDirectiveInMergeMap(directive: unknown, patch: JsonMap): Steps<JsonMap> {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return (yield* discardNullValues(patch)) as JsonMap;
  }
  if (directive === deleteDirective) return {};
  throw badPatchType(directive, patch);
}

/**
 * `$retainKeys: [names]` clears every key of `original` not named, after checking that the patch sets only named
 * keys. Upstream applies it wherever it appears, whatever the field's declared strategy.
 */
function* applyRetainKeysDirective(original: JsonMap, patch: JsonMap): Steps<void> {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const retainKeys = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retainKeys)) throw badPatchFormatForRetainKeys();
  const retained = new Set<unknown>();
  for (const k of retainKeys) {
    retained.add(scalarKey(k));
    if (due()) yield;
  }
  for (const k of Object.keys(patch)) {
    if (due()) yield;
    if (patch[k] === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!retained.has(scalarKey(k))) throw badPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) {
    if (due()) yield;
    if (!retained.has(scalarKey(k))) delete original[k];
  }
}

/**
 * Handles every `$setElementOrder/<field>` of `patch`: merges `<field>` (if the patch has it) and then orders the
 * list as the directive says, items the directive does not name keeping their place relative to the live list.
 * Handled keys are removed from `patch`.
 */
function* mergePatchIntoOriginal(original: JsonMap, patch: JsonMap, schema: PatchSchema): Steps<void> {
  for (const key of Object.keys(patch)) {
    if (due()) yield;
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const setElementOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw badArgType('[]interface {}', setElementOrder);
    const listKey = extractKey(key, setElementOrderPrefix);

    const foundOriginal = Object.hasOwn(original, listKey);
    const foundPatch = Object.hasOwn(patch, listKey);
    const originalList = original[listKey];
    const patchList = patch[listKey];
    if (foundOriginal && !Array.isArray(originalList)) throw badArgType('[]interface {}', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw badArgType('[]interface {}', patchList);
    const originalItems = (foundOriginal ? originalList : []) as unknown[];
    const patchItems = (foundPatch ? patchList : []) as unknown[];

    const field = fieldSchema(schema, listKey);
    const strategy = patchStrategyOf(field);
    const mergeKey = field.patchMergeKey ?? '';
    yield* validatePatchWithSetOrderList(patchItems, setElementOrder, mergeKey);

    let merged: unknown[];
    let liveOrder = originalItems;
    if (foundOriginal && foundPatch) {
      merged = yield* mergeSliceHandler(originalItems, patchItems, field, false);
      if (strategy === mergeDirective && mergeKey !== '') {
        liveOrder = yield* liveListAfterInPlaceMerge(originalItems, patchItems, mergeKey);
      }
    } else if (foundOriginal) merged = originalItems;
    else if (foundPatch) merged = patchItems;
    else continue;

    const [named, serverOnly] =
      mergeKey === ''
        ? yield* partitionPrimitivesByPresentInList(merged, setElementOrder)
        : yield* partitionMapsByPresentInList(merged, setElementOrder, mergeKey);
    const mapKind = (yield* sliceElementType([originalItems, patchItems])) === 'map[string]interface {}';
    setOwn(original, listKey, yield* normalizeElementOrder(named, serverOnly, setElementOrder, liveOrder, mergeKey, mapKind));
    delete patch[listKey];
  }
}

/**
 * The live list of objects as upstream's `$setElementOrder` step sees it once the list was merged: upstream deletes
 * items by shifting the live list in place and appends new items into the room that frees, so the "live order" it
 * places server-only items by is the remaining items, then as many new items as items were deleted (then, if fewer
 * were added, copies of the last items). Reproduced because it decides where server-only items land.
 */
function* liveListAfterInPlaceMerge(original: readonly unknown[], patch: readonly unknown[], mergeKey: string): Steps<unknown[]> {
  // Where each merge key sits in the live list, in order: shifting the list once per deleted item, as upstream
  // does, would take quadratic time.
  const positions = new Map<unknown, number[]>();
  for (let i = 0; i < original.length; i++) {
    if (due()) yield;
    const item = original[i];
    if (!isMap(item) || !Object.hasOwn(item, mergeKey)) continue;
    const key = scalarKey(item[mergeKey]);
    const at = positions.get(key);
    if (at === undefined) positions.set(key, [i]);
    else at.push(i);
  }
  // Upstream's shifts leave, past the list's end, the item that was last when the list lost that slot: the slot
  // `length - 1` keeps the last item of the list as it was before each deletion.
  const deleted = new Uint8Array(original.length);
  const leftBehind = new Array<unknown>(original.length);
  let length = original.length;
  let last = original.length - 1;
  let replaced = false;
  for (const item of patch) {
    if (due()) yield;
    if (!isMap(item) || !Object.hasOwn(item, directiveMarker)) continue;
    if (item[directiveMarker] === replaceDirective) replaced = true;
    if (item[directiveMarker] !== deleteDirective) continue;
    const key = scalarKey(item[mergeKey]);
    for (const at of positions.get(key) ?? []) {
      if (due()) yield;
      leftBehind[length - 1] = original[last];
      deleted[at] = 1;
      length--;
      while (last >= 0 && deleted[last] === 1) last--;
    }
    positions.delete(key);
  }
  const backing: unknown[] = [];
  for (let i = 0; i < original.length; i++) {
    if (due()) yield;
    if (deleted[i] === 0) backing.push(original[i]);
  }
  for (let i = length; i < original.length; i++) backing.push(leftBehind[i]);
  if (replaced) return backing;
  const list = backing.slice(0, length);
  // The merge keys the list holds: looking each patch item up in the list would take quadratic time.
  const present = new Set<unknown>();
  for (const candidate of list) {
    if (due()) yield;
    if (isMap(candidate) && Object.hasOwn(candidate, mergeKey)) present.add(scalarKey(candidate[mergeKey]));
  }
  for (const item of patch) {
    if (due()) yield;
    if (!isMap(item) || Object.hasOwn(item, directiveMarker)) continue;
    if (present.has(scalarKey(item[mergeKey]))) continue;
    if (list.length < backing.length) backing[list.length] = item;
    list.push(item);
    if (Object.hasOwn(item, mergeKey)) present.add(scalarKey(item[mergeKey]));
  }
  return backing;
}

/**
 * Checks that the patch list names its items in the order `$setElementOrder` gives (deletions and other directive
 * items aside) and names no item the directive lacks.
 */
function* validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): Steps<void> {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey === '' ? patchList : (yield* extractToDeleteItems(patchList))[0];
  let patchIndex = 0;
  let orderIndex = 0;
  while (patchIndex < nonDelete.length && orderIndex < setOrderList.length) {
    if (due()) yield;
    const item = nonDelete[patchIndex];
    if (isMap(item) && Object.hasOwn(item, directiveMarker)) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrderList[orderIndex], mergeKey)) patchIndex++;
    orderIndex++;
  }
  if (patchIndex < nonDelete.length && orderIndex >= setOrderList.length) {
    throw fail(
      `The order in patch list:\n${goValue(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goValue(setOrderList)}\n`,
    );
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return sameScalar(left, right);
  if (!isMap(left)) throw badArgType('map[string]interface {}', left);
  if (!isMap(right)) throw badArgType('map[string]interface {}', right);
  if (!Object.hasOwn(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return sameScalar(left[mergeKey], right[mergeKey]);
}

/** A list field: strategy `merge` merges, anything else replaces the list with the patch's. */
function* mergeSliceHandler(original: unknown[], patch: unknown[], field: PatchSchema, isDeleteList: boolean): Steps<unknown[]> {
  if (patchStrategyOf(field) === mergeDirective) {
    // A field that is not a list (upstream: a pointer to a struct) lends its own schema to the items.
    return yield* mergeSlice(original, patch, field.items() ?? field, field.patchMergeKey ?? '', isDeleteList);
  }
  // Upstream quirk kept: a `$deleteFromPrimitiveList` for a list that is not merged replaces that list.
  return (yield* discardNullValues(patch)) as unknown[];
}

/** Merges two lists of a `merge` field, then orders them (patch order first, server-only items in live order). */
function* mergeSlice(
  original: unknown[],
  patch: unknown[],
  itemSchema: PatchSchema,
  mergeKey: string,
  isDeleteList: boolean,
): Steps<unknown[]> {
  if (original.length === 0 && patch.length === 0) return original;
  const mapKind = (yield* sliceElementType([original, patch])) === 'map[string]interface {}';

  let serverList = original;
  let patchItems: unknown[] | undefined = patch;
  let merged: unknown[];
  if (!mapKind) {
    if (isDeleteList) return yield* deleteFromSlice(original, patch);
    merged = yield* deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw fail('cannot merge lists without merge key for struct');
    [serverList, patchItems] = yield* mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = yield* mergeSliceWithoutSpecialElements(serverList, patchItems ?? [], mergeKey, itemSchema);
  }

  const order = patchItems ?? [];
  const [inPatch, serverOnly] =
    mergeKey === ''
      ? yield* partitionPrimitivesByPresentInList(merged, order)
      : yield* partitionMapsByPresentInList(merged, order, mergeKey);
  return yield* normalizeElementOrder(inPatch, serverOnly, order, serverList, mergeKey, mapKind);
}

/**
 * Applies the directive items of a list of objects: `{$patch: delete, <key>: v}` removes the live items with that
 * key, `{$patch: replace}` makes the other patch items the whole list. Returns the live list to merge into and the
 * patch items left to merge (undefined once the list is replaced).
 */
function* mergeSliceWithSpecialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): Steps<[unknown[], unknown[] | undefined]> {
  const plain: unknown[] = [];
  let live = original;
  let replace = false;
  // The merge keys to delete, removed in one pass (a pass per deleted key would take quadratic time).
  const deleted = new Set<unknown>();
  for (const item of patch) {
    if (due()) yield;
    const m = item as JsonMap;
    if (!Object.hasOwn(m, directiveMarker)) {
      plain.push(item);
      continue;
    }
    const directive = m[directiveMarker];
    if (directive === deleteDirective) {
      if (!Object.hasOwn(m, mergeKey)) throw noMergeKey(m, mergeKey);
      if (deleted.size === 0) {
        for (const candidate of live) {
          if (due()) yield;
          if (!isMap(candidate)) throw fail('value for key is not a map');
        }
      }
      deleted.add(scalarKey(m[mergeKey]));
    } else if (directive === replaceDirective) {
      replace = true;
    } else if (directive === mergeDirective) {
      throw fail('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, m);
    }
  }
  if (replace) {
    for (const item of plain) yield* discardNullValues(item);
    return [plain, undefined];
  }
  if (deleted.size > 0) {
    const kept: unknown[] = [];
    for (const candidate of live) {
      if (due()) yield;
      if (!(Object.hasOwn(candidate as JsonMap, mergeKey) && deleted.has(scalarKey((candidate as JsonMap)[mergeKey])))) kept.push(candidate);
    }
    live = kept;
  }
  return [live, plain];
}

/** Merges each patch item into the live item with the same merge key, or appends it. */
function* mergeSliceWithoutSpecialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  itemSchema: PatchSchema,
): Steps<unknown[]> {
  const merged = [...original];
  // Where each merge key first sits (the lists are lists of objects here): a scan per patch item would be quadratic.
  const index = yield* mapIndex(merged, mergeKey);
  for (const item of patch) {
    if (due()) yield;
    const m = item as JsonMap;
    if (!Object.hasOwn(m, mergeKey)) throw noMergeKey(m, mergeKey);
    const at = index.find(m[mergeKey]);
    if (at >= 0) merged[at] = yield* mergeMap(merged[at] as JsonMap, m, itemSchema);
    else index.add(m[mergeKey], merged.push(yield* discardNullValues(m)) - 1);
  }
  return merged;
}

/**
 * Upstream's findMapInSlice answered from an index: the position of the first object of `list` whose merge key
 * has a value, or the failure a scan from the start would meet (an item that is not an object, before any match).
 */
function* mapIndex(list: readonly unknown[], mergeKey: string): Steps<{ find(value: unknown): number; add(value: unknown, at: number): void }> {
  const positions = new Map<unknown, number>();
  let notAMap = -1;
  for (let i = 0; i < list.length; i++) {
    if (due()) yield;
    const item = list[i];
    if (!isMap(item)) {
      notAMap = i;
      break;
    }
    if (!Object.hasOwn(item, mergeKey)) continue;
    const key = scalarKey(item[mergeKey]);
    if (!positions.has(key)) positions.set(key, i);
  }
  return {
    find(value) {
      const at = positions.get(scalarKey(value));
      if (at !== undefined) return at;
      if (notAMap >= 0) throw fail(`value for key ${notAMap} is not a map`);
      return -1;
    },
    add(value, at) {
      const key = scalarKey(value);
      if (notAMap < 0 && !positions.has(key)) positions.set(key, at);
    },
  };
}

/** `$deleteFromPrimitiveList/<field>`: drops every listed value from a merged list of scalars. */
function* deleteFromSlice(current: readonly unknown[], toDelete: readonly unknown[]): Steps<unknown[]> {
  const deleted = new Set<unknown>();
  for (const v of toDelete) {
    if (due()) yield;
    deleted.add(scalarKey(v));
  }
  const kept: unknown[] = [];
  for (const v of current) {
    if (due()) yield;
    if (!deleted.has(scalarKey(v))) kept.push(v);
  }
  return kept;
}

/**
 * Each scalar once. Upstream deduplicates in place, moving the last item into each duplicate's slot, in quadratic
 * time; the order it leaves does not matter: the caller then orders every item by the patch's or the live list's
 * order, which name each of these values.
 */
function* deduplicateScalars(list: unknown[]): Steps<unknown[]> {
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const v of list) {
    if (due()) yield;
    const key = scalarKey(v);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

function* partitionPrimitivesByPresentInList(list: readonly unknown[], by: readonly unknown[]): Steps<[unknown[], unknown[]]> {
  const present = new Set<unknown>();
  for (const v of by) {
    if (due()) yield;
    present.add(scalarKey(v));
  }
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) {
    if (due()) yield;
    (present.has(scalarKey(v)) ? inBy : rest).push(v);
  }
  return [inBy, rest];
}

function* partitionMapsByPresentInList(
  list: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
): Steps<[unknown[], unknown[]]> {
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  const index = yield* mapIndex(by, mergeKey);
  for (const v of list) {
    if (due()) yield;
    if (!isMap(v)) throw badArgType('map[string]interface {}', v);
    if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
    (index.find(v[mergeKey]) >= 0 ? inBy : rest).push(v);
  }
  return [inBy, rest];
}

/**
 * Sorts the patch's items by `patchOrder` and the server-only items by `serverOrder`, then interleaves them: a
 * server-only item goes before a patch item when the live list had it earlier; a patch item new to the live list
 * goes as early as the patch order lets it.
 */
function* normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  mapKind: boolean,
): Steps<unknown[]> {
  // Built once, for sorting the server-only items and for interleaving (building it never fails).
  const serverIndex = yield* indexer(serverOrder, mergeKey, mapKind);
  const left = yield* normalizeSliceOrder(serverOnly, serverOrder, mergeKey, mapKind, serverIndex);
  const right = yield* normalizeSliceOrder(patchItems, patchOrder, mergeKey, mapKind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (due()) yield;
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = serverIndex(left[i]);
      const ri = serverIndex(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Stable sort of `toSort` by position in `order`; for objects, items marked `$patch: delete` go last. */
function* normalizeSliceOrder(
  toSort: unknown[],
  order: readonly unknown[],
  mergeKey: string,
  mapKind: boolean,
  orderIndex?: (item: unknown) => number,
): Steps<unknown[]> {
  let sortable = toSort;
  let toDelete: unknown[] = [];
  if (mapKind) {
    yield* validateMergeKeyInLists(mergeKey, toSort, order);
    [sortable, toDelete] = yield* extractToDeleteItems(toSort);
  }
  const at = orderIndex ?? (yield* indexer(order, mergeKey, mapKind));
  // Each item's place in `order`, looked up once: the sort compares by it alone.
  const places: number[] = [];
  for (const item of sortable) {
    if (due()) yield;
    places.push(at(item));
  }
  // Upstream's comparison treats an item missing from `order` as smaller than anything (and anything as smaller
  // than it): the result depends on Go's exact sort, which goStableSortSteps repeats (on the items' positions).
  const less = (a: number, b: number) => {
    const ia = places[a]!;
    const ib = places[b]!;
    return ia >= 0 && ib >= 0 ? ia < ib : true;
  };
  const positions = places.map((_, i) => i);
  yield* goStableSortSteps(positions, less);
  const sorted: unknown[] = [];
  for (const i of positions) {
    if (due()) yield;
    sorted.push(sortable[i]);
  }
  for (const item of toDelete) sorted.push(item);
  return sorted;
}

function* validateMergeKeyInLists(mergeKey: string, ...lists: (readonly unknown[])[]): Steps<void> {
  for (const list of lists) {
    for (const item of list) {
      if (due()) yield;
      if (!isMap(item)) throw badArgType('map[string]interface {}', item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

function* extractToDeleteItems(list: readonly unknown[]): Steps<[unknown[], unknown[]]> {
  const keep: unknown[] = [];
  const remove: unknown[] = [];
  for (const v of list) {
    if (due()) yield;
    if (!isMap(v)) throw badArgType('map[string]interface {}', v);
    (v[directiveMarker] === deleteDirective ? remove : keep).push(v);
  }
  return [keep, remove];
}

/** Position of an item (by merge key value for objects, by value for scalars) in `list`, first occurrence; -1 if absent. */
function* indexer(list: readonly unknown[], mergeKey: string, mapKind: boolean): Steps<(item: unknown) => number> {
  const valueOf = (item: unknown) => (mapKind ? (isMap(item) ? item[mergeKey] : undefined) : item);
  const positions = new Map<unknown, number>();
  for (const [i, item] of list.entries()) {
    if (due()) yield;
    const k = scalarKey(valueOf(item));
    if (!positions.has(k)) positions.set(k, i);
  }
  return (item) => positions.get(scalarKey(valueOf(item))) ?? -1;
}

/** The type every item of the lists shares; lists of lists, mixed types and null items are errors. */
function* sliceElementType(lists: readonly (readonly unknown[])[]): Steps<GoType> {
  let previous: GoType | undefined;
  for (const list of lists) {
    for (const v of list) {
      if (due()) yield;
      const current = goTypeName(v);
      if (previous === undefined) {
        if (current === '<nil>') throw fail('list element types are not identical: a list item is null');
        if (current === '[]interface {}') throw noListOfLists();
        previous = current;
      } else if (previous !== current) {
        throw fail(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (previous === undefined) throw fail('no elements in any of the given slices');
  return previous;
}

/** `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` → `<field>`. */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === deleteFromPrimitiveListPrefix ? badPatchFormatForPrimitiveList() : badPatchFormatForSetElementOrderList();
  }
  return key.slice(slash + 1);
}

/** The schema of a key of an object: a declared field, else the map's values, else unknown. */
function fieldSchema(schema: PatchSchema, key: string): PatchSchema {
  return schema.field(key) ?? schema.additionalProperties() ?? permissivePatchSchema;
}

/**
 * The strategy of a field apart from `retainKeys` (which changes nothing when a patch is applied: the patch's own
 * `$retainKeys` says what to keep). Two strategies must include `retainKeys`.
 */
function patchStrategyOf(field: PatchSchema): string {
  const strategies = field.patchStrategy === undefined ? [] : field.patchStrategy.split(',');
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === retainKeysStrategy ? '' : (strategies[0] ?? '');
  if (strategies.length === 2) {
    if (strategies[0] === retainKeysStrategy) return strategies[1] ?? '';
    if (strategies[1] === retainKeysStrategy) return strategies[0] ?? '';
  }
  throw fail(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

/**
 * Removes null-valued keys at every depth of a value taken whole from the patch (typed decoding drops them too).
 * One walk with a stack of the objects and lists still to visit: a generator per nested value would cost a patch of
 * many small items more than its items do.
 */
function* discardNullValues(value: unknown): Steps<unknown> {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (const v of next) {
        if (due()) yield;
        if (typeof v === 'object' && v !== null) pending.push(v);
      }
    } else if (isMap(next)) {
      for (const k of Object.keys(next)) {
        if (due()) yield;
        const v = next[k];
        if (v === null) delete next[k];
        else if (typeof v === 'object') pending.push(v);
      }
    }
  }
  return value;
}

function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of a decoded value, in one walk with a stack of the copies still to fill (as discardNullValues). */
function* cloneJson(value: unknown): Steps<unknown> {
  const copyOf = (v: object): object => (Array.isArray(v) ? [] : {});
  if (typeof value !== 'object' || value === null) return value;
  const root = copyOf(value);
  const pending: [object, object][] = [[value, root]];
  while (pending.length > 0) {
    const [from, to] = pending.pop()!;
    if (Array.isArray(from)) {
      for (const v of from) {
        if (due()) yield;
        if (typeof v !== 'object' || v === null) {
          (to as unknown[]).push(v);
          continue;
        }
        const copy = copyOf(v);
        (to as unknown[]).push(copy);
        pending.push([v, copy]);
      }
      continue;
    }
    for (const k of Object.keys(from)) {
      if (due()) yield;
      const v = (from as JsonMap)[k];
      if (typeof v !== 'object' || v === null) {
        setOwn(to as JsonMap, k, v);
        continue;
      }
      const copy = copyOf(v);
      setOwn(to as JsonMap, k, copy);
      pending.push([v, copy]);
    }
  }
  return root;
}

/** Go's dynamic type of a decoded JSON value (integers decode as int64 in kube-apiserver). */
type GoType = 'map[string]interface {}' | '[]interface {}' | 'string' | 'bool' | 'int64' | 'float64' | '<nil>';

function goTypeName(value: unknown): GoType {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'object':
      return 'map[string]interface {}';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return Number.isInteger(value) ? 'int64' : 'float64';
  }
}

/**
 * Identity of a scalar as Go's `==` on interface values sees it, as a key of a Map or Set (which compare with
 * SameValueZero: a string never equals a number or a boolean, 0 equals -0); a missing value is nil; objects are
 * only equal to themselves. The value itself: building a typed string for each of many lookups cost more than
 * the lookups.
 */
function scalarKey(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** Whether two scalars are equal as {@link scalarKey} sees them (SameValueZero). */
function sameScalar(a: unknown, b: unknown): boolean {
  const x = scalarKey(a);
  const y = scalarKey(b);
  return x === y || (Number.isNaN(x) && Number.isNaN(y));
}

/** A value as Go's `%v` prints it (maps with sorted keys), so messages read like upstream's. */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isMap(value)) {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  }
  return String(value);
}

/** A value as Go's `%s` prints it: strings as they are, other scalars flagged with their type. */
function goString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isMap(value) || Array.isArray(value)) return goValue(value);
  return `%!s(${goTypeName(value)}${value === null ? '' : `=${String(value)}`})`;
}

/** What encoding/json calls a JSON value it cannot decode into a map. */
function jsonKindName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  return 'number';
}
