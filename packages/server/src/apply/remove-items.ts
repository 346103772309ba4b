/**
 * Removing the members of a path set from a value (structured-merge-diff's RemoveItems): a member path is removed
 * with everything under it; a path with only children is walked into. A map or list emptied by the removal becomes
 * `null` (the caller drops nulls when it is done, as the typed object kube-apiserver converts back to omits them).
 */
import { pathTree, type PathSet } from './path-set.js';
import { fieldSchemaOf, isAtomicMap, isObject, itemElement, itemSchemaOf, listKindOf, type Schema } from './schema-view.js';

type Tree = ReturnType<typeof pathTree>;

/** `value` without the members of `set`; the root object stays an object. */
export function removeItems(value: Record<string, unknown>, set: PathSet, schema: Schema): Record<string, unknown> {
  if (set.size === 0) return value;
  const out = walk(value, pathTree(set), schema);
  return isObject(out) ? out : {};
}

function walk(value: unknown, tree: Tree, schema: Schema): unknown {
  if (isObject(value)) {
    if (isAtomicMap(schema)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const child = tree.children.get(`f:${k}`);
      if (child === undefined) {
        out[k] = v;
        continue;
      }
      if (child.member) continue;
      out[k] = walk(v, child, fieldSchemaOf(schema, k));
    }
    return Object.keys(out).length === 0 && Object.keys(value).length > 0 ? null : out;
  }
  if (Array.isArray(value)) {
    const kind = listKindOf(schema);
    if (kind.kind === 'atomic') return value;
    const items = itemSchemaOf(schema);
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const child = tree.children.get(itemElement(item, kind, i));
      if (child === undefined) {
        out.push(item);
        return;
      }
      if (child.member) return;
      out.push(walk(item, child, items));
    });
    return out.length === 0 && value.length > 0 ? null : out;
  }
  return value;
}
