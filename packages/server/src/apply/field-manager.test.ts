/**
 * Server-side apply and update ownership, table by table: document 1 §Server-side apply points 1–10 (each its own
 * test; points 2 and 7 are about the HTTP layer and are also covered end to end), conflicts and force, list and map
 * types, the managedFields reset, topology changes and the Update manager cap.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { patchSchemaFromOpenApi } from '../patch/patch-schema.js';
import { generatedSchemas } from '../schema/generated-data.js';
import { applyConfiguration, updateManagedFields, type FieldManagerScope, type ManagedObject } from './field-manager.js';
import { decodeManagedFields } from './managed-fields.js';
import { hasPath } from './path-set.js';
import { deducedSchema } from './schema-view.js';

const schemas = generatedSchemas();
let clock = 0;
const now = (): string => new Date(Date.UTC(2024, 0, 1, 0, 0, clock++)).toISOString().replace(/\.\d+Z$/, 'Z');

function scopeFor(schemaName: string, apiVersion: string, hasStatus: boolean, subresource = ''): FieldManagerScope {
  return { schema: patchSchemaFromOpenApi(schemas, schemaName), apiVersion, subresource, hasStatus, now, typed: true };
}
const cmScope = scopeFor('io.k8s.api.core.v1.ConfigMap', 'v1', false);
const deployScope = scopeFor('io.k8s.api.apps.v1.Deployment', 'apps/v1', true);
const deployStatusScope = scopeFor('io.k8s.api.apps.v1.Deployment', 'apps/v1', true, 'status');
const podScope = scopeFor('io.k8s.api.core.v1.Pod', 'v1', true);

/** A live object and the writes made to it, as the server would make them. */
function world(scope: FieldManagerScope, initial?: ManagedObject) {
  let live: ManagedObject | undefined = initial;
  return {
    get live(): ManagedObject {
      return live!;
    },
    apply(manager: string, config: ManagedObject, force = false, at: FieldManagerScope = scope) {
      const out = applyConfiguration(live, structuredClone(config), manager, force, at);
      if (out.ok) live = out.value;
      return out;
    },
    update(manager: string, next: ManagedObject, at: FieldManagerScope = scope) {
      live = updateManagedFields(live, structuredClone(next), manager, at);
      return live;
    },
    owners(path: string): string[] {
      const decoded = decodeManagedFields(live?.metadata?.managedFields);
      assert.ok(decoded.ok);
      const want = path.split('.').map((p) => (p.startsWith('k:') || p.startsWith('v:') ? p : `f:${p}`));
      return [...decoded.value.values()].filter((r) => hasPath(r.fields, want)).map((r) => `${r.manager}/${r.operation}`).sort();
    },
  };
}

const cm = (data: Record<string, string>, extra: Record<string, unknown> = {}): ManagedObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, data, ...extra });

const deploy = (spec: Record<string, unknown>): ManagedObject =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' }, spec });

describe('document 1 §Server-side apply', () => {
  test('1: the applied body is a partial object; the applier owns exactly its fields', () => {
    const w = world(cmScope);
    const out = w.apply('a', cm({ x: '1' }));
    assert.ok(out.ok);
    assert.deepEqual(w.live.data, { x: '1' });
    const entries = w.live.metadata!.managedFields as { manager: string; operation: string; fieldsType: string; fieldsV1: unknown; apiVersion: string; time: string }[];
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.manager, 'a');
    assert.equal(entries[0]!.operation, 'Apply');
    assert.equal(entries[0]!.apiVersion, 'v1');
    assert.equal(entries[0]!.fieldsType, 'FieldsV1');
    assert.match(entries[0]!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // name and namespace are never owned; data.x is; data (a declared struct field) is not a member by itself.
    assert.deepEqual(entries[0]!.fieldsV1, { 'f:data': { 'f:x': {} } });
  });

  test('2: non-apply writes record Update managers under the given name', () => {
    const w = world(cmScope);
    w.update('kubectl-create', cm({ x: '1' }));
    assert.deepEqual(w.owners('data.x'), ['kubectl-create/Update']);
    const entry = (w.live.metadata!.managedFields as { operation: string; apiVersion: string }[])[0]!;
    assert.equal(entry.operation, 'Update');
    assert.equal(entry.apiVersion, 'v1');
  });

  test('3: ownership moves to the last writer; equal values are shared', () => {
    const w = world(cmScope);
    assert.ok(w.apply('a', cm({ x: '1', y: '1' })).ok);
    assert.ok(w.apply('b', cm({ y: '1' })).ok, 'same value: no conflict');
    assert.deepEqual(w.owners('data.y'), ['a/Apply', 'b/Apply']);
    w.update('editor', cm({ x: '2', y: '1' }));
    assert.deepEqual(w.owners('data.x'), ['editor/Update']);
    assert.deepEqual(w.owners('data.y'), ['a/Apply', 'b/Apply']);
  });

  test('4: only apply conflicts; an update never does', () => {
    const w = world(cmScope);
    assert.ok(w.apply('a', cm({ x: '1' })).ok);
    w.update('editor', cm({ x: '2' }));
    assert.equal(w.live.data && (w.live.data as Record<string, string>).x, '2');
    const out = w.apply('b', cm({ x: '3' }));
    assert.equal(out.ok, false);
    assert.ok(!out.ok && out.error.reason === 'conflict');
    assert.equal(!out.ok && out.error.message, 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.x');
    assert.equal((w.live.data as Record<string, string>).x, '2', 'a failed apply changes nothing');
  });

  test('5: force takes sole ownership; dropping the field gives it up; the live value shares it', () => {
    const forced = world(cmScope);
    forced.apply('a', cm({ x: '1' }));
    forced.apply('c', cm({ x: '1' }));
    assert.ok(forced.apply('b', cm({ x: '2' }), true).ok);
    assert.deepEqual(forced.owners('data.x'), ['b/Apply']);
    assert.equal(forced.live.metadata!.managedFields && (forced.live.metadata!.managedFields as unknown[]).length, 1, 'a and c lost their only field');

    const dropped = world(cmScope);
    dropped.apply('a', cm({ x: '1' }));
    dropped.apply('b', cm({ x: '1', y: '2' }));
    assert.ok(dropped.apply('b', cm({ y: '2' })).ok, 'b gives up x');
    assert.deepEqual(dropped.live.data, { x: '1', y: '2' }, 'value unchanged: a still owns it');
    assert.deepEqual(dropped.owners('data.x'), ['a/Apply']);

    const shared = world(cmScope);
    shared.apply('a', cm({ x: '1' }));
    assert.equal(shared.apply('b', cm({ x: '2' })).ok, false);
    assert.ok(shared.apply('b', cm({ x: '1' })).ok, 'the live value: shared ownership');
    assert.deepEqual(shared.owners('data.x'), ['a/Apply', 'b/Apply']);
  });

  test('6: removing a field deletes it unless another manager owns it; list and map items too', () => {
    const w = world(deployScope);
    const spec = (containers: unknown[], labels: Record<string, string>) => ({
      replicas: 2, selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels }, spec: { containers } },
    });
    assert.ok(w.apply('a', deploy(spec([{ name: 'one', image: 'i1' }, { name: 'two', image: 'i2' }], { app: 'x', tier: 'web' }))).ok);
    assert.ok(w.apply('b', deploy({ template: { spec: { containers: [{ name: 'two', image: 'i2' }] } } })).ok);
    // a drops replicas, container "two" (b owns it too), container "one" and label "tier".
    assert.ok(w.apply('a', deploy({ selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [] } } })).ok);
    const s = w.live.spec as { replicas?: number; template: { metadata: { labels: Record<string, string> }; spec: { containers: { name: string }[] } } };
    assert.equal(s.replicas, undefined, 'owned by nobody now: removed');
    assert.deepEqual(s.template.metadata.labels, { app: 'x' }, 'map item removed');
    assert.deepEqual(s.template.spec.containers.map((c) => c.name), ['two'], 'list item of another manager kept');
    // Removing every remaining field of b removes the item; the emptied list goes away.
    assert.ok(w.apply('b', deploy({})).ok);
    assert.equal((w.live.spec as { template: { spec?: { containers?: unknown } } }).template.spec?.containers, undefined);
    assert.deepEqual((w.live.spec as { selector: unknown }).selector, { matchLabels: { app: 'x' } }, 'a\'s fields stay');
  });

  test('7: apply is a patch; applying to a missing object creates it', () => {
    const w = world(cmScope);
    const out = w.apply('a', cm({ x: '1' }));
    assert.ok(out.ok);
    assert.equal(w.owners('data.x')[0], 'a/Apply');
  });

  test('8: [{}] resets managed fields first, so the writer owns what it changes; [] does not reset', () => {
    const w = world(cmScope);
    w.apply('a', cm({ x: '1', y: '1' }));
    const kept = w.update('editor', { ...cm({ x: '1', y: '1' }), metadata: { name: 'c', namespace: 'd', managedFields: [] } });
    assert.deepEqual(w.owners('data.x'), ['a/Apply'], 'an empty list keeps the live ownership');
    assert.ok(kept.metadata!.managedFields);
    w.update('editor', { ...cm({ x: '1', y: '2' }), metadata: { name: 'c', namespace: 'd', managedFields: [{}] } });
    assert.deepEqual(w.owners('data.y'), ['editor/Update']);
    assert.deepEqual(w.owners('data.x'), []);
    assert.equal((w.live.metadata!.managedFields as unknown[]).length, 1);
    w.update('editor', { ...cm({ x: '1', y: '2' }), metadata: { name: 'c', namespace: 'd', managedFields: [{}] } });
    assert.equal(w.live.metadata!.managedFields, undefined, 'a reset with no change leaves no managers');
  });

  test('9: topology changes: granular → atomic makes element owners own the whole; atomic → granular never conflicts', () => {
    const granular = { components: { schemas: {
      T: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } },
    } } }.components.schemas;
    const atomic = { T: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' } } } };
    const g: FieldManagerScope = { schema: patchSchemaFromOpenApi(granular, 'T'), apiVersion: 'v1', subresource: '', hasStatus: false, now, typed: false };
    const a: FieldManagerScope = { ...g, schema: patchSchemaFromOpenApi(atomic, 'T') };
    const w = world(g);
    assert.ok(w.apply('one', { apiVersion: 'v1', kind: 'T', m: { k1: 'v' } }).ok);
    assert.ok(w.apply('two', { apiVersion: 'v1', kind: 'T', m: { k2: 'v' } }).ok);
    // Now atomic: both owners of an element own all of m, and a change by a third applier conflicts with both.
    const out = w.apply('three', { apiVersion: 'v1', kind: 'T', m: { k1: 'x' } }, false, a);
    assert.ok(!out.ok && out.error.reason === 'conflict');
    assert.deepEqual(!out.ok && out.error.reason === 'conflict' ? out.error.conflicts.map((c: { manager: string }) => JSON.parse(c.manager).manager) : [], ['one', 'two']);
    // Back to granular from atomic: the atomic owner's leaf does not cover the elements, so nothing conflicts.
    const w2 = world(a);
    assert.ok(w2.apply('one', { apiVersion: 'v1', kind: 'T', m: { k1: 'v' } }).ok);
    assert.ok(w2.apply('two', { apiVersion: 'v1', kind: 'T', m: { k1: 'changed' } }, false, g).ok);
  });

  test('10: a controller forces without reading the object or sending resourceVersion', () => {
    const w = world(deployScope);
    w.update('kubectl-create', deploy({ replicas: 1, selector: { matchLabels: { a: 'b' } } }));
    const out = w.apply('controller', deploy({ replicas: 5 }), true);
    assert.ok(out.ok);
    assert.equal((w.live.spec as { replicas: number }).replicas, 5);
    assert.deepEqual(w.owners('spec.replicas'), ['controller/Apply']);
    assert.deepEqual(w.owners('spec.selector'), ['kubectl-create/Update']);
  });
});

describe('list and map types', () => {
  test('list-map items are owned by key and merged by key', () => {
    const w = world(podScope);
    const pod = (containers: unknown[]): ManagedObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers } });
    assert.ok(w.apply('a', pod([{ name: 'app', image: 'x' }])).ok);
    assert.ok(w.apply('b', pod([{ name: 'side', image: 'y' }])).ok);
    const names = ((w.live.spec as { containers: { name: string }[] }).containers).map((c) => c.name);
    assert.deepEqual(names, ['app', 'side']);
    assert.deepEqual(w.owners('spec.containers.k:{"name":"app"}.image'), ['a/Apply']);
    const fields = (w.live.metadata!.managedFields as { manager: string; fieldsV1: unknown }[]).find((e) => e.manager === 'b')!.fieldsV1;
    assert.deepEqual(fields, { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  test('multi-key list maps use sorted keys (ports: containerPort + protocol)', () => {
    const w = world(podScope);
    const pod = (ports: unknown[]): ManagedObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', ports }] } });
    assert.ok(w.apply('a', pod([{ protocol: 'TCP', containerPort: 80 }])).ok);
    assert.deepEqual(w.owners('spec.containers.k:{"name":"c"}.ports.k:{"containerPort":80,"protocol":"TCP"}.containerPort'), ['a/Apply']);
  });

  test('sets (finalizers: patch strategy merge without key) are owned per value', () => {
    const w = world(cmScope);
    assert.ok(w.apply('a', { ...cm({}), metadata: { name: 'c', namespace: 'd', finalizers: ['x/one'] } }).ok);
    assert.ok(w.apply('b', { ...cm({}), metadata: { name: 'c', namespace: 'd', finalizers: ['x/two'] } }).ok);
    assert.deepEqual(w.live.metadata!.finalizers, ['x/one', 'x/two']);
    assert.deepEqual(w.owners('metadata.finalizers.v:"x/two"'), ['b/Apply']);
    assert.ok(w.apply('a', cm({})).ok);
    assert.deepEqual(w.live.metadata!.finalizers, ['x/two']);
  });

  test('atomic lists are replaced and owned whole (args)', () => {
    const w = world(podScope);
    const pod = (args: string[]): ManagedObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', args }] } });
    assert.ok(w.apply('a', pod(['1', '2'])).ok);
    assert.deepEqual(w.owners('spec.containers.k:{"name":"c"}.args'), ['a/Apply']);
    const out = w.apply('b', pod(['3']));
    assert.ok(!out.ok, 'the whole list belongs to a');
  });

  test('atomic structs (label selector) are owned whole', () => {
    const w = world(deployScope);
    assert.ok(w.apply('a', deploy({ selector: { matchLabels: { x: 'y' } } })).ok);
    assert.deepEqual(w.owners('spec.selector'), ['a/Apply']);
    const out = w.apply('b', deploy({ selector: { matchLabels: { other: 'z' } } }));
    assert.ok(!out.ok);
  });

  test('objects without a schema: keys granular, lists atomic', () => {
    const scope: FieldManagerScope = { schema: deducedSchema, apiVersion: 'x/v1', subresource: '', hasStatus: false, now, typed: false };
    const w = world(scope);
    assert.ok(w.apply('a', { apiVersion: 'x/v1', kind: 'T', spec: { list: [1, 2], m: { k: 1 } } }).ok);
    assert.deepEqual((w.live.metadata!.managedFields as { fieldsV1: unknown }[])[0]!.fieldsV1,
      { 'f:spec': { '.': {}, 'f:list': {}, 'f:m': { '.': {}, 'f:k': {} } } });
    const out = w.apply('b', { apiVersion: 'x/v1', kind: 'T', spec: { list: [1, 2, 3] } });
    assert.ok(!out.ok, 'atomic list conflicts as a whole');
    assert.ok(w.apply('b', { apiVersion: 'x/v1', kind: 'T', spec: { m: { j: 2 } } }).ok, 'a new key does not');
  });
});

describe('what a write adds, judged against the typed old object', () => {
  const fieldsOf = (object: ManagedObject, manager: string): unknown =>
    (object.metadata!.managedFields as { manager: string; fieldsV1: unknown }[]).find((e) => e.manager === manager)?.fieldsV1;
  const container = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'i', ...extra });

  test('a pointer struct the old object lacked is added; a non-pointer struct never is, even when storage lacks it', () => {
    const w = world(deployScope);
    w.update('a', deploy({ strategy: { type: 'Recreate' }, template: { spec: { containers: [container()] } } }));
    const next = deploy({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }, template: { metadata: { labels: { x: 'y' } }, spec: { containers: [container()] } } });
    assert.deepEqual(fieldsOf(w.update('b', next), 'b'), {
      'f:spec': {
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {} }, 'f:type': {} },
        'f:template': { 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } } },
      },
    });
  });

  test('in a new list item every map and list is added; a list without omitempty (containers) is not', () => {
    const w = world(deployScope);
    const made = w.update('a', deploy({ template: { spec: { containers: [container({ resources: { limits: { cpu: '1' } } })] } } }));
    assert.deepEqual(fieldsOf(made, 'a'), {
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': {
        '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:cpu': {} } },
      } } } } },
    });
  });

  test('custom objects are maps: every map a write adds is added', () => {
    const scope: FieldManagerScope = { schema: deducedSchema, apiVersion: 'x/v1', subresource: '', hasStatus: false, now, typed: false };
    const w = world(scope);
    assert.deepEqual(fieldsOf(w.update('a', { apiVersion: 'x/v1', kind: 'T', spec: { m: { k: 1 } } }), 'a'),
      { 'f:spec': { '.': {}, 'f:m': { '.': {}, 'f:k': {} } } });
  });
});

describe('subresources, conflicts, caps', () => {
  test('status and spec are owned separately per subresource', () => {
    const w = world(deployScope);
    w.update('creator', deploy({ replicas: 1 }));
    w.update('kubelet', { ...deploy({ replicas: 1 }), status: { replicas: 3 } }, deployStatusScope);
    const entries = w.live.metadata!.managedFields as { manager: string; subresource?: string; fieldsV1: unknown }[];
    const status = entries.find((e) => e.manager === 'kubelet')!;
    assert.equal(status.subresource, 'status');
    assert.deepEqual(status.fieldsV1, { 'f:status': { 'f:replicas': {} } });
    // A write of status through the main resource is not owned (the strategy resets it).
    w.update('creator', { ...deploy({ replicas: 2 }), status: { replicas: 9 } });
    assert.deepEqual(w.owners('status.replicas'), ['kubelet/Update']);
  });

  test('several conflicts are listed per manager, sorted', () => {
    const w = world(cmScope);
    w.update('zeta', cm({ a: '1' }));
    w.apply('alpha', cm({ a: '1', b: '1' }));
    const out = w.apply('me', cm({ a: '2', b: '2' }));
    assert.ok(!out.ok && out.error.reason === 'conflict');
    assert.equal(!out.ok && out.error.message,
      'Apply failed with 3 conflicts: conflicts with "alpha":\n- .data.a\n- .data.b\nconflicts with "zeta" using v1:\n- .data.a');
  });

  test('at most ten Update managers: the oldest merge into ancient-changes', () => {
    const w = world(cmScope);
    const data: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      data[`k${i}`] = 'v';
      w.update(`m${i}`, cm({ ...data }));
    }
    const entries = w.live.metadata!.managedFields as { manager: string }[];
    assert.equal(entries.length, 10);
    assert.equal(entries[0]!.manager, 'ancient-changes');
    assert.deepEqual(w.owners('data.k0'), ['ancient-changes/Update']);
    assert.deepEqual(w.owners('data.k2'), ['ancient-changes/Update']);
    assert.deepEqual(w.owners('data.k3'), ['m3/Update']);
  });

  test('a first apply to an object without managed fields gives what exists to before-first-apply', () => {
    const w = world(cmScope, cm({ old: '1' }));
    const out = w.apply('a', cm({ old: '2' }));
    assert.ok(!out.ok, 'conflicts with before-first-apply');
    assert.ok(w.apply('a', cm({ x: '1' })).ok);
    assert.deepEqual(w.owners('data.old'), ['before-first-apply/Update']);
  });

  test('an apply that changes nothing keeps the object and its time', () => {
    const w = world(cmScope);
    w.apply('a', cm({ x: '1' }));
    const before = structuredClone(w.live);
    w.apply('a', cm({ x: '1' }));
    assert.deepEqual(w.live, before);
  });
});
