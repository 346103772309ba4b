import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownValue, setOwn } from './own-members.js';

test('__proto__ is set and read as an own member, as JSON.parse makes it', () => {
  const target: Record<string, unknown> = {};
  setOwn(target, '__proto__', { polluted: true });
  setOwn(target, 'a', 1);
  assert.equal(Object.getPrototypeOf(target), Object.prototype, 'the prototype is untouched');
  assert.equal(JSON.stringify(target), JSON.stringify(JSON.parse('{"__proto__":{"polluted":true},"a":1}')));
  assert.deepEqual(ownValue(target, '__proto__'), { polluted: true });
  assert.equal(ownValue({}, '__proto__'), undefined, 'never the inherited prototype');
  assert.equal(ownValue({}, 'toString'), undefined);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});
