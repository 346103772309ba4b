import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enabledControllers } from './enabled-controllers.js';

const table = {
  namespace: { onByDefault: true },
  garbagecollector: { onByDefault: true },
  bootstrapsigner: { onByDefault: false },
  tokencleaner: { onByDefault: false },
};

const enabled = (flag: string[]): string[] => {
  const r = enabledControllers(table, flag);
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
};

test('* enables the controllers on by default; a name adds one; -name removes one', () => {
  assert.deepEqual(enabled(['*']), ['namespace', 'garbagecollector']);
  assert.deepEqual(enabled(['*', 'bootstrapsigner']), ['namespace', 'garbagecollector', 'bootstrapsigner']);
  assert.deepEqual(enabled(['*', '-garbagecollector']), ['namespace']);
  assert.deepEqual(enabled(['-garbagecollector', '*', 'tokencleaner']), ['namespace', 'tokencleaner']);
});

test('without * only the named controllers run; an empty list runs none', () => {
  assert.deepEqual(enabled(['garbagecollector', 'tokencleaner']), ['garbagecollector', 'tokencleaner']);
  assert.deepEqual(enabled(['-namespace']), []);
  assert.deepEqual(enabled([]), []);
});

test('the first entry naming a controller decides', () => {
  assert.deepEqual(enabled(['-namespace', 'namespace', '*']), ['garbagecollector']);
  assert.deepEqual(enabled(['namespace', '-namespace']), ['namespace']);
});

test('unknown names are refused, with or without the minus, and the known ones are listed', () => {
  assert.deepEqual(enabledControllers(table, ['*', 'nosuch']), {
    ok: false,
    error: '--controllers: "nosuch" is not in the list of known controllers (namespace, garbagecollector, bootstrapsigner, tokencleaner)',
  });
  const two = enabledControllers(table, ['-nosuch', 'other']);
  assert.ok(!two.ok);
  assert.match(two.error, /^--controllers: "nosuch", "other" are not in the list of known controllers/);
  assert.equal(enabledControllers(table, ['-*']).ok, false);
});
