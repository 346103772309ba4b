import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../testing/seeded-random.js';
import { aggregatedV2, maxRemoteDepth, mergeAggregatedV2 } from './aggregated-v2.js';
import { built } from './v3.js';
import type { SwaggerDocument } from './v2.js';
import { openapiV2Protobuf } from './v2-protobuf.js';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const op = (id: string, schema?: unknown) => ({ get: { operationId: id, responses: { 200: { description: 'OK', ...(schema ? { schema } : {}) } } } });

const base: SwaggerDocument = {
  swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.27.0' },
  paths: { '/api/v1/pods': op('listPods', ref('Pod')), '/apis/shared.example.com/v1/things': op('localThings') },
  definitions: { Pod: { type: 'object' }, ListMeta: { type: 'object', description: 'local' } },
};

test('remote /apis/ paths and the definitions they reach are merged in priority order; conflicts follow kube-openapi', () => {
  const first = JSON.stringify({
    swagger: '2.0', info: { title: 'first' },
    paths: {
      '/apis/a.example.com/v1/widgets': op('listWidgets', ref('WidgetList')),
      '/apis/shared.example.com/v1/things': op('remoteThings'),
      '/version': op('remoteVersion'),
    },
    definitions: {
      WidgetList: { type: 'object', properties: { items: { type: 'array', items: ref('Widget') }, metadata: ref('ListMeta') } },
      Widget: { type: 'object', properties: { self: ref('Widget') } },
      ListMeta: { type: 'object', description: 'remote' },
      Unreached: { type: 'object' },
    },
  });
  const second = JSON.stringify({
    swagger: '2.0',
    paths: { '/apis/b.example.com/v1/gadgets': op('listGadgets', ref('ListMeta')), '/apis/a.example.com/v1/widgets': op('shadowed') },
    definitions: { ListMeta: { type: 'object', description: 'remote' } },
  });
  const merged = mergeAggregatedV2(base, [first, second]).document;
  assert.deepEqual(Object.keys(merged.paths), [
    '/api/v1/pods', '/apis/a.example.com/v1/widgets', '/apis/b.example.com/v1/gadgets', '/apis/shared.example.com/v1/things',
  ]);
  assert.equal((merged.paths['/apis/shared.example.com/v1/things']!['get'] as { operationId: string }).operationId, 'localThings');
  assert.equal((merged.paths['/apis/a.example.com/v1/widgets']!['get'] as { operationId: string }).operationId, 'listWidgets');
  assert.deepEqual(Object.keys(merged.definitions), ['ListMeta', 'ListMeta_v2', 'Pod', 'Widget', 'WidgetList']);
  assert.equal(merged.definitions['ListMeta']!['description'], 'local');
  assert.deepEqual((merged.definitions['WidgetList']!['properties'] as Record<string, unknown>)['metadata'], ref('ListMeta_v2'));
  // The second server's ListMeta equals the renamed one: it is shared, not renamed again.
  const gadgets = merged.paths['/apis/b.example.com/v1/gadgets']!['get'] as { responses: Record<string, { schema: unknown }> };
  assert.deepEqual(gadgets.responses['200']!.schema, ref('ListMeta_v2'));
  assert.deepEqual(merged.info, base.info);
});

test('a third different definition of one name gets _v3', () => {
  const remote = (description: string) => JSON.stringify({ paths: { [`/apis/${description}.example.com/v1/x`]: op(description, ref('ListMeta')) }, definitions: { ListMeta: { description } } });
  const merged = mergeAggregatedV2(base, [remote('one'), remote('two')]).document;
  assert.equal(merged.definitions['ListMeta_v2']!['description'], 'one');
  assert.equal(merged.definitions['ListMeta_v3']!['description'], 'two');
});

test('documents that are not Swagger objects, or nest too deep, add nothing; the result is cached by its inputs', () => {
  const deep = `{"paths":{"/apis/x/v1/y":${'{"a":'.repeat(maxRemoteDepth + 5)}1${'}'.repeat(maxRemoteDepth + 5)}}}`;
  const bad = ['', '{', 'null', '[]', '"swagger"', '{"paths":[]}', '{"paths":{"/apis/x/v1/y":7}}', deep];
  const merged = mergeAggregatedV2(base, bad);
  assert.deepEqual(merged.document.paths, base.paths);
  assert.deepEqual(merged.document.definitions, base.definitions);

  const merge = aggregatedV2();
  const builtBase = built(base);
  assert.equal(merge(builtBase, []), builtBase);
  const remote = { json: JSON.stringify({ paths: { '/apis/c.example.com/v1/z': op('z') } }), hash: 'h1' };
  const once = merge(builtBase, [remote]);
  assert.equal(merge(builtBase, [remote]), once);
  assert.notEqual(merge(builtBase, [{ ...remote, hash: 'h2' }]), once);
});

test('fuzz: random and mutated remote documents never throw, and never change what the server serves itself', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const random = seededRandom(seed);
    const int = (n: number) => Math.floor(random() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
    const names = ['Pod', 'ListMeta', 'A', 'B', 'A_v2', '', '__proto__', 'constructor', 'x/y'];
    const value = (depth: number): unknown => {
      switch (depth <= 0 ? int(4) : int(8)) {
        case 0: return pick([null, true, 0, -1.5, 'text', '#/definitions/A']);
        case 1: return ref(pick(names));
        case 2: return { $ref: pick([7, null, '#/definitions/', '#/components/schemas/A', `#/definitions/${pick(names)}`]) };
        case 3: return [];
        case 4: return Array.from({ length: int(3) }, () => value(depth - 1));
        default: return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(['type', 'items', 'properties', '$ref', 'schema', pick(names)]), value(depth - 1)]));
      }
    };
    const doc: Record<string, unknown> = {};
    if (random() < 0.9) doc['paths'] = Object.fromEntries(Array.from({ length: int(4) }, () => [pick(['/apis/f.example.com/v1/a', '/apis/shared.example.com/v1/things', '/api/v1/pods', '/x', '/apis/']), value(3)]));
    if (random() < 0.9) doc['definitions'] = Object.fromEntries(Array.from({ length: int(5) }, () => [pick(names), value(3)]));
    if (random() < 0.1) doc['swagger'] = value(2);
    const text = random() < 0.1 ? JSON.stringify(doc).slice(0, int(40)) : JSON.stringify(doc);
    const merged = mergeAggregatedV2(base, [text, text]);
    for (const [p, item] of Object.entries(base.paths)) assert.deepEqual(merged.document.paths[p], item, `seed ${seed}`);
    for (const [n, d] of Object.entries(base.definitions)) assert.deepEqual(merged.document.definitions[n], d, `seed ${seed}`);
    assert.doesNotThrow(() => JSON.parse(merged.json));
    // kubectl's form of the document is encoded from the merged one.
    assert.doesNotThrow(() => openapiV2Protobuf(merged.document), `seed ${seed}`);
  }
});
