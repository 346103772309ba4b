import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The store's raw writes (create, update, remove: no admission, strategy or managedFields) are for the registry's
 * operations only; everything else writes through them. Tests may call the store directly.
 */
const writeMethods = new Set(['create', 'update', 'remove']);

/**
 * Where a source file calls a store write method: `x.store.update(...)`, `store.update(...)`, or the same through an
 * alias of `x.store` or a parameter of type `Store`.
 */
function rawStoreWrites(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const aliases = new Set(['store']);
  const isStore = (e: ts.Expression): boolean =>
    (ts.isPropertyAccessExpression(e) && e.name.text === 'store') || (ts.isIdentifier(e) && aliases.has(e.text));
  const found: string[] = [];
  const at = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.type !== undefined && ts.isTypeReferenceNode(node.type)
      && node.type.typeName.getText(source) === 'Store') aliases.add(node.name.text);
    if (ts.isVariableDeclaration(node) && node.initializer !== undefined && isStore(node.initializer)) {
      if (ts.isIdentifier(node.name)) aliases.add(node.name.text);
      else if (ts.isObjectBindingPattern(node.name)) {
        for (const element of node.name.elements) {
          const key = element.propertyName ?? element.name;
          if (ts.isIdentifier(key) && writeMethods.has(key.text)) found.push(at(element));
        }
      }
    }
    if (ts.isPropertyAccessExpression(node) && writeMethods.has(node.name.text) && isStore(node.expression)) found.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('the checker finds store writes, their aliases and destructured ones, and nothing else', () => {
  const text = [
    'await registry.store.update(def, object, o);',
    'const s = registry.store; await s.remove(def, object, o);',
    'const { create: make } = registry.store;',
    'await store.create(def, object, o);',
    'await registry.store.get(def, ns, name);',
    'await backend.update(key, value, 1);',
    '// registry.store.update(def, object, o)',
    "const text = 'store.update(';",
    'function f(s2: Store) { return s2.update(def, object, o); }',
  ].join('\n');
  assert.deepEqual(rawStoreWrites('x.ts', text), ['x.ts:1', 'x.ts:2', 'x.ts:3', 'x.ts:4', 'x.ts:9']);
});

test('outside registry/operations/ no source file writes to the store directly', () => {
  const root = fileURLToPath(new URL('../../../src/', import.meta.url));
  const allowed = [join('registry', 'operations') + sep, join('registry', 'store.ts')];
  const offenders = sources(root)
    .map((path) => relative(root, path))
    .filter((path) => !allowed.some((a) => path.startsWith(a)))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }))
    // Every way of reaching the store's methods names it: files that never say `store` need no parse.
    .filter(({ text }) => text.includes('store'))
    .flatMap(({ path, text }) => rawStoreWrites(path, text));
  assert.deepEqual(offenders, []);
});
