import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImportGraph } from './import-graph.js';
import { importsOf } from './import-graph.js';
import { importCycles, layerViolations, parseLayerTable, type LayerTable } from './layer-rule.js';

const packages = [
  { name: '@x/api', dir: 'packages/api' },
  { name: '@x/testing', dir: 'packages/testing' },
  { name: 'x-server', dir: 'packages/server' },
];

const doc = `# Architecture

\`\`\`layers
packages  api
packages  testing     test-support
packages  server
server    storage
server    registry    # the generic store
server    http controllers
server    testing
\`\`\`
`;

function table(): LayerTable {
  const parsed = parseLayerTable(doc);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.value;
}

const files = [
  'packages/api/src/status.ts',
  'packages/testing/src/temp-dir.ts',
  'packages/server/src/storage/backend.ts',
  'packages/server/src/storage/backend-suite.ts',
  'packages/server/src/registry/store.ts',
  'packages/server/src/registry/store.test.ts',
  'packages/server/src/http/handler.ts',
  'packages/server/src/controllers/gc.ts',
  'packages/server/src/testing/fake.ts',
];

function graph(...edges: [string, string][]): ImportGraph {
  return { files, edges: edges.map(([from, to]) => ({ from, to, specifier: to })) };
}

test('the layers block is read lowest first, with comments and the test-support mark', () => {
  const t = table();
  assert.deepEqual(t.packages.map((l) => l.names), [['api'], ['testing'], ['server']]);
  assert.deepEqual(t.modules['server']!.map((l) => l.names), [['storage'], ['registry'], ['http', 'controllers'], ['testing']]);
  assert.deepEqual([...t.testSupportPackages], ['testing']);
  assert.equal(parseLayerTable('# no block').ok, false);
  assert.equal(parseLayerTable('```layers\nserver  storage  test-support\n```\n').ok, false);
});

test('imports down the layers pass', () => {
  const g = graph(
    ['packages/server/src/registry/store.ts', 'packages/server/src/storage/backend.ts'],
    ['packages/server/src/http/handler.ts', 'packages/server/src/registry/store.ts'],
    ['packages/server/src/storage/backend.ts', 'packages/api/src/status.ts'],
  );
  assert.deepEqual(layerViolations(g, packages, table()), []);
  assert.deepEqual(importCycles(g), []);
});

test('an upward import fails, between modules and between packages', () => {
  const g = graph(
    ['packages/server/src/storage/backend.ts', 'packages/server/src/registry/store.ts'],
    ['packages/api/src/status.ts', 'packages/server/src/storage/backend.ts'],
  );
  assert.deepEqual(layerViolations(g, packages, table()), [
    'packages/api/src/status.ts imports packages/server/src/storage/backend.ts: package api is below server',
    'packages/server/src/storage/backend.ts imports packages/server/src/registry/store.ts: module storage is below registry',
  ]);
});

test('modules side by side in one layer may not import each other', () => {
  const g = graph(['packages/server/src/controllers/gc.ts', 'packages/server/src/http/handler.ts']);
  assert.deepEqual(layerViolations(g, packages, table()), [
    'packages/server/src/controllers/gc.ts imports packages/server/src/http/handler.ts: module controllers and http stand side by side in one layer',
  ]);
});

test('tests and test support may import any layer; only they import test support; nothing imports a test', () => {
  const allowed = graph(
    ['packages/server/src/registry/store.test.ts', 'packages/server/src/http/handler.ts'],
    ['packages/server/src/storage/backend-suite.ts', 'packages/server/src/http/handler.ts'],
    ['packages/server/src/registry/store.test.ts', 'packages/server/src/testing/fake.ts'],
    ['packages/server/src/registry/store.test.ts', 'packages/testing/src/temp-dir.ts'],
    ['packages/server/src/testing/fake.ts', 'packages/server/src/storage/backend-suite.ts'],
  );
  assert.deepEqual(layerViolations(allowed, packages, table()), []);
  const refused = graph(
    ['packages/server/src/registry/store.ts', 'packages/server/src/storage/backend-suite.ts'],
    ['packages/server/src/http/handler.ts', 'packages/testing/src/temp-dir.ts'],
    ['packages/server/src/http/handler.ts', 'packages/server/src/registry/store.test.ts'],
  );
  assert.deepEqual(layerViolations(refused, packages, table()), [
    'packages/server/src/http/handler.ts imports packages/server/src/registry/store.test.ts: nothing imports a test',
    'packages/server/src/http/handler.ts imports packages/testing/src/temp-dir.ts: only tests and test support import test support',
    'packages/server/src/registry/store.ts imports packages/server/src/storage/backend-suite.ts: only tests and test support import test support',
  ]);
});

test('a file of a module the table does not name fails', () => {
  const g: ImportGraph = { files: [...files, 'packages/server/src/cel/env.ts'], edges: [] };
  assert.deepEqual(layerViolations(g, packages, table()), ['packages/server/src/cel/env.ts: module cel is in no layer of server']);
});

test('a cycle fails, within a module too, and a file importing itself is one', () => {
  const g = graph(
    ['packages/server/src/http/handler.ts', 'packages/server/src/registry/store.ts'],
    ['packages/server/src/registry/store.ts', 'packages/server/src/storage/backend.ts'],
    ['packages/server/src/storage/backend.ts', 'packages/server/src/registry/store.ts'],
    ['packages/server/src/controllers/gc.ts', 'packages/server/src/controllers/gc.ts'],
  );
  assert.deepEqual(importCycles(g), [
    ['packages/server/src/registry/store.ts', 'packages/server/src/storage/backend.ts'],
    ['packages/server/src/controllers/gc.ts'],
  ]);
});

test('every kind of import counts: type-only, re-exports, side effects and import()', () => {
  const text = [
    "import type { A } from './a.js';",
    "import { type B } from './b.js';",
    "export type { C } from './c.js';",
    "export * from './d.js';",
    "import './e.js';",
    "const f = await import('./f.js');",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js']);
});
