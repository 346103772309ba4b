/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): scalars, atomic lists and atomic maps are
 * leaves; every item of a granular list and every map key (but not a declared struct field, unless it holds
 * `null` or `{}`) is a member too. Apply records this set of the applied configuration as the applier's fields.
 */
import { fieldElement } from './field-path.js';
import { addPath, newNode, nodeAt, type PathSet, type PathSetNode } from './path-set.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemElement, itemSchemaOf, listKindOf, type Schema,
} from './schema-view.js';
import { itemsPerStep } from './compare.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

/** The fields `value` sets under `schema`. */
export function fieldSetOf(value: unknown, schema: Schema): PathSet {
  return runSteps(fieldSetSteps(value, schema));
}

/** {@link fieldSetOf} in steps (see limits/turn-budget.ts). */
export function* fieldSetSteps(value: unknown, schema: Schema): Steps<PathSet> {
  const out = newNode();
  yield* walk(value, schema, [], out, { visited: 0 });
  return out;
}

/**
 * Adds what `value` (at `path`) sets; `path` is a stack the walk pushes and pops. Answers how many keys or items
 * `value` has (0 for a scalar), so that the caller need not list a large map's keys again.
 */
function* walk(value: unknown, schema: Schema, path: string[], out: PathSetNode, count: { visited: number }): Generator<void, number, void> {
  if (isObject(value)) {
    if (isAtomicMap(schema)) {
      if (path.length > 0) addPath(out, path);
      return 1;
    }
    // Scalar members (most keys of a large map) go into this map's node directly, made on first use.
    let node: PathSetNode | undefined;
    const keys = Object.keys(value);
    for (const k of keys) {
      if (++count.visited % itemsPerStep === 0) yield;
      const v = value[k];
      // A scalar or null is a member wherever it sits; an object or list is walked, and is a member itself when
      // it is an empty object or not a declared field.
      if (typeof v !== 'object' || v === null) {
        (node ??= nodeAt(out, path)).members.add(fieldElement(k));
        continue;
      }
      path.push(fieldElement(k));
      const size = yield* walk(v, fieldSchemaOf(schema, k), path, out, count);
      if (!isNamedField(schema, k) || (!Array.isArray(v) && size === 0)) addPath(out, path);
      path.pop();
    }
    return keys.length;
  }
  if (Array.isArray(value)) {
    const kind = listKindOf(schema);
    if (kind.kind === 'atomic') {
      if (path.length > 0) addPath(out, path);
      return value.length;
    }
    const items = itemSchemaOf(schema);
    for (let i = 0; i < value.length; i++) {
      if (++count.visited % itemsPerStep === 0) yield;
      path.push(itemElement(value[i], kind, i));
      yield* walk(value[i], items, path, out, count);
      addPath(out, path);
      path.pop();
    }
    return value.length;
  }
  if (path.length > 0) addPath(out, path);
  return 0;
}
