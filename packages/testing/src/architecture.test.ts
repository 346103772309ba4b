/**
 * The workspace keeps the house rules of docs/architecture.md: imports go down its layers (type-only imports
 * included), no file reaches itself through its imports, and the packages' runtime exports reach every product
 * module but no test and no test support.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { buildImportGraph, workspacePackages } from './import-graph.js';
import { factsOf, importCycles, layerViolations, parseLayerTable, type LayerTable } from './layer-rule.js';
import { repoRoot } from './node-child.js';

const packages = workspacePackages(repoRoot);
const parsed = parseLayerTable(readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8'));
const graph = buildImportGraph(repoRoot, packages);

function layers(): LayerTable {
  assert.ok(parsed.ok, parsed.ok ? '' : `docs/architecture.md: ${parsed.error}`);
  return parsed.value;
}

test('every import goes down the layers of docs/architecture.md', () => {
  assert.ok(graph.files.length > 100 && graph.edges.length > 100, 'the sources were read');
  assert.deepEqual(layerViolations(graph, packages, layers()), []);
});

test('no import cycle, type-only imports included', () => {
  assert.deepEqual(importCycles(graph), []);
});

/** Whether `specifier` resolves through the package exports (from this package, as any dependant would). */
function exported(specifier: string): boolean {
  try {
    import.meta.resolve(specifier);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return false;
    throw e;
  }
}

test('the runtime exports reach every product module, and no test or test support', () => {
  const table = layers();
  const wrong: string[] = [];
  for (const pkg of packages) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, pkg.dir, 'package.json'), 'utf8')) as { exports?: unknown };
    if (manifest.exports === undefined || table.testSupportPackages.has(posix.basename(pkg.dir))) continue;
    for (const file of graph.files.filter((f) => f.startsWith(`${pkg.dir}/src/`))) {
      const facts = factsOf(file, packages, table);
      const subpath = file.slice(`${pkg.dir}/src/`.length).replace(/\.ts$/, '');
      const isProduct = !facts.isTest && !facts.isTestSupport;
      if (exported(`${pkg.name}/${subpath}`) !== isProduct) wrong.push(`${pkg.name}/${subpath} ${isProduct ? 'is not exported' : 'is exported'}`);
    }
  }
  assert.deepEqual(wrong, []);
});
