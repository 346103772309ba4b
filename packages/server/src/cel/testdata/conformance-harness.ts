/**
 * Runs cel-spec conformance tests (as @bufbuild/cel-spec ships them) through this package's compile and evaluate,
 * i.e. in kube-apiserver 1.27's environment: every expression is type-checked against the test's declarations, as
 * Kubernetes always checks. Used by conformance.test.ts.
 */
import { UnsignedInt, Duration } from '@marcbachmann/cel-js/evaluator';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import type { Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js';
import { compile } from '../compile.js';
import { celEnvironment, type VariableDecl } from '../environment.js';
import { evaluate } from '../evaluate.js';
import type { DeclType } from '../schema-types.js';
import { isCelObject } from '../values.js';

const scalars = new Map<string, DeclType>();
const lists = new Map<DeclType, DeclType>();
const maps = new Map<DeclType, DeclType>();

function scalarType(s: Extract<DeclType, { kind: 'scalar' }>['scalar']): DeclType {
  let t = scalars.get(s);
  if (t === undefined) scalars.set(s, (t = { kind: 'scalar', scalar: s, maxElements: 0, minSerializedSize: 1 }));
  return t;
}

/** The declared type of a conformance type, or undefined when this environment has no such type (messages). */
function declType(t: Type | undefined): DeclType | undefined {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'primitive': return scalarType((['dyn', 'bool', 'int', 'dyn', 'double', 'string', 'bytes'] as const)[k.value]);
    case 'wellKnown': return k.value === 2 ? scalarType('timestamp') : k.value === 3 ? scalarType('duration') : scalarType('dyn');
    case 'dyn': return scalarType('dyn');
    case 'listType': {
      const elem = declType(k.value.elemType);
      if (elem === undefined) return undefined;
      let l = lists.get(elem);
      if (l === undefined) lists.set(elem, (l = { kind: 'list', elem, listType: 'atomic', mapKeys: [], maxElements: 0, minSerializedSize: 2 }));
      return l;
    }
    case 'mapType': {
      const value = declType(k.value.valueType);
      if (value === undefined || k.value.keyType?.typeKind.case !== 'primitive' || k.value.keyType.typeKind.value !== 5) return undefined;
      let m = maps.get(value);
      if (m === undefined) maps.set(value, (m = { kind: 'map', value, maxElements: 0, minSerializedSize: 2 }));
      return m;
    }
    default: return undefined;
  }
}

function toValue(value: Value): unknown {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return null;
    case 'boolValue': case 'stringValue': case 'doubleValue': return k.value;
    case 'int64Value': return k.value;
    case 'uint64Value': return new UnsignedInt(k.value);
    case 'bytesValue': return new Uint8Array(k.value);
    case 'listValue': return k.value.values.map(toValue);
    case 'mapValue': {
      const out: Record<string, unknown> = Object.create(null);
      for (const e of k.value.entries) out[String(toValue(e.key!))] = toValue(e.value!);
      return out;
    }
    default: throw new Error(`unsupported value ${k.case}`);
  }
}

type Normal = { t: string; v?: unknown };

function normalExpected(value: Value): Normal {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return { t: 'null' };
    case 'bytesValue': return { t: 'bytes', v: Buffer.from(k.value).toString('hex') };
    case 'listValue': return { t: 'list', v: k.value.values.map(normalExpected) };
    case 'mapValue': return { t: 'map', v: k.value.entries.map((e) => [normalExpected(e.key!), normalExpected(e.value!)]) };
    case 'int64Value': return { t: 'int', v: k.value };
    case 'uint64Value': return { t: 'uint', v: k.value };
    case 'doubleValue': return { t: 'double', v: k.value };
    case 'boolValue': return { t: 'bool', v: k.value };
    case 'stringValue': return { t: 'string', v: k.value };
    case 'typeValue': return { t: 'type', v: k.value };
    default: return { t: `unsupported:${k.case}` };
  }
}

function normalActual(v: unknown): Normal {
  if (v === null) return { t: 'null' };
  switch (typeof v) {
    case 'bigint': return { t: 'int', v };
    case 'number': return { t: 'double', v };
    case 'string': return { t: 'string', v };
    case 'boolean': return { t: 'bool', v };
    default: break;
  }
  if (v instanceof UnsignedInt) return { t: 'uint', v: v.value };
  if (v instanceof Uint8Array) return { t: 'bytes', v: Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return { t: 'list', v: v.map(normalActual) };
  if (v instanceof Date || v instanceof Duration || isCelObject(v)) return { t: 'other' };
  if (typeof v === 'object' && v !== null && v.constructor?.name === 'Type') {
    const name = (v as { name: string }).name;
    return { t: 'type', v: name === 'google.protobuf.Timestamp' ? 'google.protobuf.Timestamp' : name === 'null' ? 'null_type' : name };
  }
  if (v instanceof Map) return { t: 'map', v: [...v].map(([a, b]) => [normalActual(a), normalActual(b)]) };
  if (typeof v === 'object' && v !== null) return { t: 'map', v: Object.entries(v).map(([a, b]) => [{ t: 'string', v: a }, normalActual(b)]) };
  return { t: 'other' };
}

function same(a: Normal, b: Normal): boolean {
  if (a.t === 'map' && b.t === 'map') {
    const x = a.v as [Normal, Normal][];
    const y = b.v as [Normal, Normal][];
    // Map keys of this environment are strings: compare keys by their text.
    return x.length === y.length && x.every(([k, v]) => y.some(([k2, v2]) => String(k.v) === String(k2.v) && same(v, v2)));
  }
  if (a.t !== b.t) return false;
  if (a.t === 'list') {
    const x = a.v as Normal[];
    const y = b.v as Normal[];
    return x.length === y.length && x.every((e, i) => same(e, y[i]!));
  }
  if (a.t === 'double' && Number.isNaN(a.v)) return Number.isNaN(b.v);
  return a.v === b.v;
}

/** Runs one conformance test; undefined when it passes, else why it failed. */
export function runConformanceTest(test: SimpleTest): string | undefined {
  const variables: VariableDecl[] = [];
  for (const decl of test.typeEnv) {
    if (decl.declKind.case !== 'ident') return 'declares a function';
    const type = declType(decl.declKind.value.type);
    if (type === undefined) return 'declares a type this environment has not';
    variables.push({ name: decl.name, type });
  }
  if (test.disableCheck) {
    for (const name of Object.keys(test.bindings)) {
      if (!variables.some((v) => v.name === name)) variables.push({ name, type: scalarType('dyn') });
    }
  }
  const env = celEnvironment(variables);
  const compiled = compile(test.expr, env);
  const expectsError = test.resultMatcher.case === 'evalError' || test.resultMatcher.case === 'anyEvalErrors';
  // Kubernetes type-checks every expression, so an error the suite expects at run time may come at compile time.
  if (!compiled.ok) return expectsError ? undefined : `compile: ${compiled.error.message.split('\n')[0]}`;
  const values: Record<string, unknown> = {};
  try {
    for (const [k, v] of Object.entries(test.bindings)) {
      if (v.kind.case !== 'value') return 'binding is not a value';
      values[k] = toValue(v.kind.value);
    }
  } catch (e) {
    return (e as Error).message;
  }
  const result = evaluate(compiled.value, { values });
  const m = test.resultMatcher;
  switch (m.case) {
    case 'evalError': case 'anyEvalErrors':
      return result.ok ? `expected an error, got ${String(result.value)}` : undefined;
    case 'value': case undefined: {
      if (!result.ok) return `error: ${result.error.message.split('\n')[0]}`;
      const expected = m.case === 'value' ? normalExpected(m.value) : { t: 'bool', v: true };
      const actual = normalActual(result.value);
      return same(expected, actual) ? undefined : `got ${JSON.stringify(actual, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))}`;
    }
    default: return `unsupported matcher ${m.case}`;
  }
}
