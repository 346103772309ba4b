import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { compile } from './compile.js';
import { celEnvironment } from './environment.js';
import { escapePropertyName, unescapePropertyName } from './escaping.js';
import { activation, evaluate } from './evaluate.js';
import { maxRequestSizeBytes } from './limits.js';
import { declTypeOf, dynType, type DeclType, type StructuralSchema } from './schema-types.js';
import { toJsonValue } from './values.js';

describe('property name escaping', () => {
  const rows: readonly [string, string | undefined][] = [
    ['foo', 'foo'],
    ['foo__bar', 'foo__underscores__bar'],
    ['foo.bar', 'foo__dot__bar'],
    ['foo-bar', 'foo__dash__bar'],
    ['foo/bar', 'foo__slash__bar'],
    ['_foo', '_foo'],
    ['___x', '__underscores___x'],
    ['namespace', '__namespace__'],
    ['true', '__true__'],
    ['in', '__in__'],
    ['if', '__if__'],
    ['return', '__return__'],
    ['namespaceFoo', 'namespaceFoo'],
    ['x-kubernetes.io/name', 'x__dash__kubernetes__dot__io__slash__name'],
    ['1foo', undefined],
    ['', undefined],
    ['foo bar', undefined],
    ['föö', undefined],
    ['a:b', undefined],
  ];
  for (const [name, escaped] of rows) {
    it(`${JSON.stringify(name)} ↔ ${String(escaped)}`, () => {
      assert.equal(escapePropertyName(name), escaped);
      if (escaped !== undefined) assert.equal(unescapePropertyName(escaped), name);
    });
  }
  it('refuses unknown escape sequences and keyword escapes inside a name', () => {
    assert.equal(unescapePropertyName('__foo__'), undefined);
    assert.equal(unescapePropertyName('x__in__'), undefined);
  });
});

const widget: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['replicas'],
      properties: {
        replicas: { type: 'integer' },
        ratio: { type: 'number' },
        enabled: { type: 'boolean' },
        name: { type: 'string', maxLength: 10 },
        'foo-bar': { type: 'string' },
        'a.b': { type: 'string' },
        'x/y': { type: 'string' },
        'double__under': { type: 'string' },
        namespace: { type: 'string' },
        'not ok': { type: 'string' },
        data: { type: 'string', format: 'byte' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
        port: { 'x-kubernetes-int-or-string': true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        order: { type: 'array', items: { type: 'string' } },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
      },
    },
  },
};

const selfType = declTypeOf(widget, { typeName: 'Widget', isResourceRoot: true })!;
const env = celEnvironment([{ name: 'self', type: selfType }, { name: 'oldSelf', type: selfType }]);

const object = {
  apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', labels: { a: 'b' } },
  spec: {
    replicas: 3, ratio: 0.5, enabled: true, name: 'web', 'foo-bar': 'fb', 'a.b': 'ab', 'x/y': 'xy', double__under: 'du',
    namespace: 'inner', 'not ok': 'hidden', data: Buffer.from('hi').toString('base64'), day: '2024-02-29',
    at: '2024-01-02T03:04:05Z', timeout: '1h30m', port: '80%', labels: { app: 'web' }, tags: ['a', 'b'], order: ['x', 'y'],
    ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }],
    template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', generateName: 'p-' }, spec: { hidden: true } },
    extra: { known: 'k', unknown: 'u' },
  },
};
const reordered = {
  ...object,
  spec: { ...object.spec, tags: ['b', 'a'], order: ['y', 'x'], ports: [{ name: 'https', port: 443 }, { name: 'http', port: 80 }] },
};
const act = activation(env, { self: object, oldSelf: reordered });

function value(expression: string): unknown {
  const c = compile(expression, env);
  assert.ok(c.ok, `${expression}: ${c.ok ? '' : c.error.message}`);
  const r = evaluate(c.value, act);
  assert.ok(r.ok, `${expression}: ${r.ok ? '' : r.error.message}`);
  return toJsonValue(r.value);
}

function compileError(expression: string): string {
  const c = compile(expression, env);
  assert.ok(!c.ok, `${expression} compiled`);
  return c.error.message;
}

describe('types from schemas', () => {
  const rows: readonly [string, unknown][] = [
    ['self.spec.replicas == 3', true],
    ['type(self.spec.replicas) == int', true],
    ['type(self.spec.ratio) == double', true],
    ['type(self.spec.enabled) == bool', true],
    ['self.spec.foo__dash__bar', 'fb'],
    ['self.spec.a__dot__b', 'ab'],
    ['self.spec.x__slash__y', 'xy'],
    ['self.spec.double__underscores__under', 'du'],
    ['self.spec.__namespace__', 'inner'],
    ['type(self.spec.data) == bytes && self.spec.data == b"hi"', true],
    ["self.spec.day == timestamp('2024-02-29T00:00:00Z')", true],
    ["self.spec.at == timestamp('2024-01-02T03:04:05Z')", true],
    ["self.spec.timeout == duration('90m')", true],
    ["type(self.spec.port) == string && self.spec.port.endsWith('%')", true],
    ["self.spec.labels['app'] == 'web' && 'app' in self.spec.labels", true],
    ['self.spec.ports.all(p, p.port > 0)', true],
    ["self.apiVersion == 'example.com/v1' && self.kind == 'Widget' && self.metadata.name == 'w'", true],
    ["self.spec.template.kind == 'Pod' && self.spec.template.metadata.generateName == 'p-'", true],
    ["self.spec.extra.known == 'k'", true],
    ['has(self.spec.ratio)', true],
    ['has(self.spec.extra.known)', true],
    ['has(self.metadata.generateName)', false],
  ];
  for (const [expression, expected] of rows) it(expression, () => assert.deepEqual(value(expression), expected));

  it('hides names that cannot be escaped, unknown fields and undeclared metadata', () => {
    assert.match(compileError('self.spec.notok == ""'), /undefined field 'notok'/);
    assert.match(compileError("self.spec.extra.unknown == 'u'"), /undefined field 'unknown'/);
    assert.match(compileError('self.spec.template.spec'), /undefined field 'spec'/);
    assert.match(compileError('self.metadata.labels'), /undefined field 'labels'/);
    assert.match(compileError('self.spec.foo-bar'), /undefined field 'foo'/);
  });

  it('type-checks fields', () => {
    assert.match(compileError("self.spec.replicas == 'three'"), /no such overload/);
    assert.match(compileError('self.spec.name + 1'), /no such overload/);
  });

  it('maps formats and shapes to types with their size bounds', () => {
    const spec = (selfType as Extract<DeclType, { kind: 'object' }>).fields.get('spec')!.type as Extract<DeclType, { kind: 'object' }>;
    const field = (n: string) => spec.fields.get(n)!.type;
    assert.deepEqual(field('name'), { kind: 'scalar', scalar: 'string', maxElements: 40, minSerializedSize: 2 });
    assert.equal(field('foo__dash__bar').maxElements, maxRequestSizeBytes - 2);
    assert.equal(field('timeout').maxElements, 32);
    assert.equal(field('at').maxElements, 32);
    assert.equal(field('day').maxElements, 12);
    assert.equal(field('port'), dynType);
    const tags = field('tags');
    assert.equal(tags.kind === 'list' && tags.listType, 'set');
    assert.equal(tags.maxElements, Math.floor((maxRequestSizeBytes - 2) / 3));
    const labels = field('labels');
    assert.equal(labels.kind, 'map');
    assert.equal(labels.maxElements, Math.floor((maxRequestSizeBytes - 2) / 8));
    assert.equal(spec.minSerializedSize, 2 + 'replicas'.length + 1 + 4);
    assert.equal(spec.fields.has('not ok'), false);
    assert.equal(declTypeOf({ type: 'array' }, { typeName: 'x' }), undefined);
  });

  it('follows $ref through a resolver, recursive references becoming dynamic', () => {
    const schemas: Record<string, StructuralSchema> = {
      Node: { type: 'object', properties: { value: { type: 'integer' }, next: { $ref: '#/components/schemas/Node' } } },
    };
    const t = declTypeOf({ $ref: '#/components/schemas/Node' }, { typeName: 'Node', resolve: (ref) => schemas[ref.split('/').pop()!] });
    assert.equal(t?.kind, 'object');
    assert.equal(t?.kind === 'object' && t.fields.get('value')?.type.kind, 'scalar');
    assert.equal(t?.kind === 'object' ? t.fields.get('next')?.type : undefined, dynType);
  });
});

describe('list types', () => {
  const rows: readonly [string, unknown][] = [
    ['self.spec.tags == oldSelf.spec.tags', true],
    ['self.spec.ports == oldSelf.spec.ports', true],
    ['self.spec.order == oldSelf.spec.order', false],
    ['self == oldSelf', false],
    ["self.spec.tags + ['c', 'a']", ['a', 'b', 'c']],
    ["self.spec.order + ['x']", ['x', 'y', 'x']],
    ['(self.spec.ports + [oldSelf.spec.ports[0]]).size()', 2],
    ["self.spec.ports.exists(p, p.name == 'http' && p.port == 80)", true],
    ['oldSelf.spec.ports[0] in self.spec.ports', true],
  ];
  for (const [expression, expected] of rows) it(expression, () => assert.deepEqual(value(expression), expected));

  it('a map list concatenation replaces items of the same key', () => {
    const t = declTypeOf({
      type: 'object',
      properties: {
        a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } } } },
      },
    }, { typeName: 'Lists' })!;
    const e = celEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]);
    const c = compile('self.a + oldSelf.a', e);
    assert.ok(c.ok, c.ok ? '' : c.error.message);
    const r = evaluate(c.value, activation(e, { self: { a: [{ k: 'x', v: 1 }, { k: 'y', v: 2 }] }, oldSelf: { a: [{ k: 'y', v: 3 }, { k: 'z', v: 4 }] } }));
    assert.ok(r.ok);
    assert.deepEqual(toJsonValue(r.value), [{ k: 'x', v: 1 }, { k: 'y', v: 3 }, { k: 'z', v: 4 }]);
  });
});

describe('gradual typing', () => {
  const e = celEnvironment([{ name: 'object', type: dynType }]);
  const act2 = activation(e, { object: { spec: { replicas: 5, selector: { app: 'x' } }, items: [1, 2.5] } });
  const rows: readonly [string, unknown][] = [
    ['object.spec.replicas <= 2', false],
    ["has(object.spec.selector) && object.spec.selector.app == 'x'", true],
    ['has(object.spec.missing)', false],
    ['type(object.items[0]) == int && type(object.items[1]) == double', true],
  ];
  for (const [expression, expected] of rows) {
    it(expression, () => {
      const c = compile(expression, e);
      assert.ok(c.ok, c.ok ? '' : c.error.message);
      const r = evaluate(c.value, act2);
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.value, expected);
    });
  }
  it('a missing field of a dynamic object is a runtime error', () => {
    const c = compile('object.spec.missing == 1', e);
    assert.ok(c.ok);
    const r = evaluate(c.value, act2);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error.message, /^no such key: missing$/);
  });
});
