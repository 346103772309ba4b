import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type Names } from '@svc-apiserver/api';
import { generatedSchemas } from '../schema/generated-data.js';
import { refName, type OpenApiSchema } from '../schema/openapi-schema.js';
import { seededRandom } from '../reliability/fuzz-random.js';
import { copyJson, mutateObject, type Json } from '../reliability/fuzz-values.js';
import { protobufBody } from '../reliability/fuzz-protobuf.js';
import { protobufCodec } from './codec.js';
import { reflectiveProtobufCodec } from './reflective-codec.js';

const schemas = generatedSchemas();
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** A sample value for a schema: every property set, up to three list items and map entries; varied by `seed`. */
function sample(schema: OpenApiSchema | undefined, depth: number, seed: { n: number }): unknown {
  if (schema === undefined) return 'x';
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  if (ref !== undefined) {
    const name = refName(ref);
    seed.n++;
    switch (name) {
      case 'io.k8s.apimachinery.pkg.api.resource.Quantity': return ['1500m', '2Gi', 7, '0'][seed.n % 4];
      case 'io.k8s.apimachinery.pkg.util.intstr.IntOrString': return [8080, 'http', -1, '', 0][seed.n % 5];
      case `${meta}Time`: return ['2024-01-02T03:04:05Z', '1970-01-01T00:00:00Z', 'not a time', '2024-01-02T03:04:05.5+02:00'][seed.n % 4];
      case `${meta}MicroTime`: return ['2024-01-02T03:04:05.123456Z', '2024-01-02T03:04:05Z', 12][seed.n % 3];
      case `${meta}Duration`: return ['1h2m3s', '300ms', 'soon', '-5s'][seed.n % 4];
      case `${meta}FieldsV1`: return { 'f:metadata': { 'f:labels': {} } };
      case 'io.k8s.apimachinery.pkg.runtime.RawExtension': return [{ apiVersion: 'v1', kind: 'Foo', a: [1, 'b'] }, 'text', 12, [1, 2]][seed.n % 4];
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': return [{ any: ['json', 1, true] }, 'a', 1.5, null][seed.n % 4];
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': return [false, { type: 'string' }, true][seed.n % 3];
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': return [{ type: 'integer' }, [{ type: 'string' }, { type: 'integer' }]][seed.n % 2];
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': return [['a', 'b'], { type: 'string' }][seed.n % 2];
      default: return sample(schemas[name], depth, seed);
    }
  }
  switch (schema.type) {
    case 'string': return schema.format === 'byte' ? ['aGVsbG8=', '', '//79'][seed.n++ % 3] : schema.enum ? schema.enum[seed.n++ % schema.enum.length] : ['', `s${seed.n}`, 'ключ 😀', 'a'.repeat(200)][seed.n++ % 4];
    case 'integer': return [7, 0, -3, 2 ** 40, 300][seed.n++ % 5];
    case 'number': return [1.5, 0, -2][seed.n++ % 3];
    case 'boolean': return seed.n++ % 2 === 0;
    case 'array': return depth > 4 ? [] : Array.from({ length: 1 + (seed.n++ % 3) }, () => sample(schema.items, depth + 1, seed));
    case 'object':
    default: {
      if (schema.properties) {
        if (depth > 4) return {};
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(schema.properties)) {
          if (k === 'apiVersion' || k === 'kind') continue;
          if (seed.n++ % 7 === 0) continue;
          out[k] = sample(v, depth + 1, seed);
        }
        return out;
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        if (depth > 4) return undefined;
        const entries = ['b', 'a', 'c-1'].slice(0, 1 + (seed.n++ % 3)).map((k) => [k, sample(schema.additionalProperties as OpenApiSchema, depth + 1, seed)]);
        return Object.fromEntries(entries);
      }
      return schema['x-kubernetes-preserve-unknown-fields'] ? { free: 'form' } : {};
    }
  }
}

function allKinds(names: Names): { apiVersion: string; kind: string; schemaName: string }[] {
  const out: { apiVersion: string; kind: string; schemaName: string }[] = [];
  for (const [schemaName, schema] of Object.entries(schemas)) {
    for (const gvk of (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
      const group = gvk.group === '' ? '' : names.fromUpstream(gvk.group);
      out.push({ apiVersion: group === '' ? gvk.version : `${group}/${gvk.version}`, kind: gvk.kind, schemaName });
    }
  }
  return out;
}

/** Map keys the engine reorders (integer-like) are written in Go's order by the generated codec only. */
function hasIntegerLikeKeys(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasIntegerLikeKeys);
  return Object.entries(value).some(([k, v]) => /^(0|[1-9]\d*)$/.test(k) || hasIntegerLikeKeys(v));
}

/**
 * Lone surrogates: the reflective codec wrote them as CESU bytes (not UTF-8); the generated one writes U+FFFD, the
 * character Go's JSON decoding makes of them.
 */
function hasLoneSurrogate(value: unknown): boolean {
  return /\\ud[89a-f]/i.test(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
}

function outcome(f: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: f() };
  } catch (e) {
    return { error: (e as Error).name };
  }
}

for (const flavour of ['svc', 'k8s'] as const) {
  test(`${flavour}: the generated codec writes and reads every kind exactly as the reflective one did`, (t) => {
    const names = namesFor(flavour);
    const generated = protobufCodec(names);
    const reflective = reflectiveProtobufCodec(names);
    const r = seededRandom(27, flavour === 'svc' ? 1 : 2);
    let compared = 0;
    let skipped = 0;
    let bytesCompared = 0;
    const brokenSeen = { bothOk: 0, onlyTheirs: 0, onlyMine: 0, neither: 0 };
    for (const k of allKinds(names)) {
      for (let variant = 0; variant < 6; variant++) {
        const body = sample(schemas[k.schemaName], 0, { n: variant * 13 }) as Record<string, Json>;
        const object: Record<string, Json> = { apiVersion: k.apiVersion, kind: k.kind, ...copyJson(body) };
        if (variant >= 3) mutateObject(r, object);
        const key = `${k.apiVersion} ${k.kind} #${variant}`;
        const mine = outcome(() => generated.encode(object));
        const theirs = outcome(() => reflective.encode(object));
        if (theirs.error !== undefined) {
          // The reflective codec threw on some odd values (a non-object inside a JSONSchemaPropsOrArray list).
          skipped++;
          continue;
        }
        assert.equal(mine.error, undefined, `${key}: ${mine.error}`);
        const bytes = mine.value as Uint8Array | undefined;
        if (!hasIntegerLikeKeys(object) && !hasLoneSurrogate(object)) bytesCompared++;
        if (!hasIntegerLikeKeys(object) && !hasLoneSurrogate(object)) assert.deepEqual(bytes && Buffer.from(bytes), theirs.value && Buffer.from(theirs.value as Uint8Array), key);
        if (bytes === undefined) continue;
        compared++;
        const a = generated.decode(bytes);
        const b = reflective.decode(bytes);
        assert.deepEqual(a, b, `${key}: decoded`);
        // The fuzzer's broken forms of the same bytes: both refuse them, or both read the same object.
        for (let i = 0; i < 4; i++) {
          const broken = protobufBody(r, bytes);
          const x = generated.decode(broken);
          const y = outcome(() => reflective.decode(broken));
          assert.ok(x.ok || x.error.code === 400, `${key}: broken body answered ${x.ok ? 'ok' : x.error.code}`);
          if (y.error !== undefined) { brokenSeen.neither++; continue; }
          const yv = y.value as typeof x;
          if (x.ok && yv.ok) brokenSeen.bothOk++; else if (yv.ok) brokenSeen.onlyTheirs++; else if (x.ok) brokenSeen.onlyMine++; else brokenSeen.neither++;
          if (x.ok && yv.ok) assert.deepEqual(x.value, yv.value, `${key}: broken body decoded differently`);
        }
      }
    }
    t.diagnostic(JSON.stringify({ compared, skipped, bytesCompared, brokenSeen }));
    assert.ok(compared > 1000, `compared ${compared}`);
    assert.ok(skipped < compared / 10, `skipped ${skipped}`);
  });
}
