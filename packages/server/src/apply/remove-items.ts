/**
 * Removing the members of a path set from a value (structured-merge-diff's RemoveItems): a member path is removed
 * with everything under it; a path with only children is walked into. A map or list emptied by the removal becomes
 * `null` (the caller drops nulls when it is done, as the typed object kube-apiserver converts back to omits them).
 */
import { setOwn } from '@svc-apiserver/api';
import { isEmpty, type PathSet } from './path-set.js';
import { fieldSchemaOf, isAtomicMap, isObject, itemElement, itemSchemaOf, listKindOf, type Schema } from './schema-view.js';

/** `value` without the members of `set`; the root object stays an object. */
export function removeItems(value: Record<string, unknown>, set: PathSet, schema: Schema): Record<string, unknown> {
  if (isEmpty(set)) return value;
  const out = walk(value, set, schema);
  return isObject(out) ? out : {};
}

function walk(value: unknown, set: PathSet, schema: Schema): unknown {
  if (isObject(value)) {
    if (isAtomicMap(schema)) return value;
    const out: Record<string, unknown> = {};
    let kept = 0;
    let any = false;
    for (const k of Object.keys(value)) {
      any = true;
      const el = `f:${k}`;
      if (set.members.has(el)) continue;
      const child = set.children.get(el);
      setOwn(out, k, child === undefined ? value[k] : walk(value[k], child, fieldSchemaOf(schema, k)));
      kept++;
    }
    return kept === 0 && any ? null : out;
  }
  if (Array.isArray(value)) {
    const kind = listKindOf(schema);
    if (kind.kind === 'atomic') return value;
    const items = itemSchemaOf(schema);
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const el = itemElement(item, kind, i);
      if (set.members.has(el)) return;
      const child = set.children.get(el);
      out.push(child === undefined ? item : walk(item, child, items));
    });
    return out.length === 0 && value.length > 0 ? null : out;
  }
  return value;
}
