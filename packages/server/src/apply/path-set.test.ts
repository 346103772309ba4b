import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathString } from './field-path.js';
import { merge } from './merge.js';
import { difference, fromFieldsV1, intersection, setOf, sortedPaths, toFieldsV1, union } from './path-set.js';
import { patchSchemaFromOpenApi } from '../patch/patch-schema.js';

test('FieldsV1 encodes members, "." for members with children, and element order f < k < v < i', () => {
  const set = setOf(
    ['f:spec', 'f:containers', 'k:{"name":"a"}'],
    ['f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image'],
    ['f:metadata', 'f:finalizers', 'v:"x"'],
    ['f:spec', 'f:b', 'i:10'], ['f:spec', 'f:b', 'i:2'],
  );
  const fields = toFieldsV1(set);
  assert.equal(JSON.stringify(fields),
    '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}}},"f:spec":{"f:b":{"i:2":{},"i:10":{}},"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}}}}');
  const back = fromFieldsV1(fields);
  assert.ok(back.ok);
  assert.deepEqual(sortedPaths(back.value), sortedPaths(set));
  assert.ok(!fromFieldsV1({ 'x:bad': {} }).ok);
  assert.ok(!fromFieldsV1({ 'f:a': 1 }).ok);
});

test('set algebra and messages', () => {
  const a = setOf(['f:a'], ['f:b']);
  const b = setOf(['f:b'], ['f:c']);
  assert.deepEqual(sortedPaths(union(a, b)), [['f:a'], ['f:b'], ['f:c']]);
  assert.deepEqual(sortedPaths(difference(a, b)), [['f:a']]);
  assert.deepEqual(sortedPaths(intersection(a, b)), [['f:b']]);
  assert.deepEqual(sortedPaths(setOf(['f:z'], ['f:a', 'k:{"p":1,"q":"x"}'], ['f:a'])).map(pathString), ['.a', '.a[p=1,q="x"]', '.z']);
});

test('merging list maps keeps live order for items the config does not name', () => {
  const schema = patchSchemaFromOpenApi({ T: { type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object' } } } } }, 'T');
  const live = { l: [{ k: 'a' }, { k: 'b', v: 1 }, { k: 'c' }] };
  assert.deepEqual(merge(live, { l: [{ k: 'c', v: 2 }, { k: 'a', v: 3 }] }, schema), { l: [{ k: 'b', v: 1 }, { k: 'c', v: 2 }, { k: 'a', v: 3 }] });
  assert.deepEqual(merge(live, { l: [{ k: 'new' }, { k: 'b', v: 9 }] }, schema), { l: [{ k: 'a' }, { k: 'new' }, { k: 'b', v: 9 }, { k: 'c' }] });
});

test('field names may hold any character, the separator of joined paths included', () => {
  const set = setOf(['f:metadata', 'f:a\u0000b', 'f:\u0000']);
  const fields = toFieldsV1(set);
  assert.deepEqual(fields, { 'f:metadata': { 'f:a\u0000b': { 'f:\u0000': {} } } });
  const back = fromFieldsV1(fields);
  assert.ok(back.ok);
  assert.deepEqual(sortedPaths(back.value), [['f:metadata', 'f:a\u0000b', 'f:\u0000']]);
});
