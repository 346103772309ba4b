import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyJsonPatch } from './json-patch.js';
import { mergePatch } from './merge-patch.js';

test('merge patch follows RFC 7386 (its appendix examples)', () => {
  assert.deepEqual(mergePatch({ a: 'b' }, { a: 'c' }), { a: 'c' });
  assert.deepEqual(mergePatch({ a: 'b' }, { a: null }), {});
  assert.deepEqual(mergePatch({ a: [{ b: 'c' }] }, { a: [1] }), { a: [1] });
  assert.deepEqual(mergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } }), { a: { b: 'd' } });
  assert.deepEqual(mergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
  assert.deepEqual(mergePatch([1, 2], { a: 'b', c: null }), { a: 'b' });
  assert.deepEqual(mergePatch({}, { a: { bb: { ccc: null } } }), { a: { bb: {} } });
  const target = { x: { y: 1 } };
  mergePatch(target, { x: { y: 2 } });
  assert.deepEqual(target, { x: { y: 1 } }, 'input unchanged');
});

test('JSON patch applies RFC 6902 operations and reports failures', () => {
  const r = applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/-', value: 3 }, { op: 'copy', from: '/a', path: '/b' }, { op: 'test', path: '/b/2', value: 3 }]);
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: [1, 2, 3], b: [1, 2, 3] });
  const failed = applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]);
  assert.ok(!failed.ok && failed.error.code === 422);
  const missing = applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]);
  assert.ok(!missing.ok && missing.error.code === 422);
  const malformed = applyJsonPatch({ a: 1 }, { op: 'add' });
  assert.ok(!malformed.ok && malformed.error.code === 400);
});
