#!/usr/bin/env node
// Measures two CEL engines for JavaScript on the cel-spec conformance suite (as shipped by @bufbuild/cel-spec):
// @marcbachmann/cel-js and @bufbuild/cel, each as it comes (no extension libraries of ours), in two modes:
//   eval        parse and evaluate; each engine's own evaluation path
//   check+eval  type-check against the test's declarations first (unless the test disables checking), then evaluate;
//               a check error fails the test, as in cel-go's conformance runner
// and prints pass counts per section. The figures chose the engine the server uses (see the README's CEL section).
//
//   node packages/server/scripts/cel-conformance.mjs [--by-subsection] [--json]
//
// @bufbuild/cel has no public type checker; its checker is reached through its package files for this measurement.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import * as buf from '@bufbuild/cel';
import { strings as bufStrings } from '@bufbuild/cel/ext';
import { Environment as CelJsEnvironment } from '@marcbachmann/cel-js';
import { UnsignedInt, Duration as CelJsDuration } from '@marcbachmann/cel-js/evaluator';

const require = createRequire(import.meta.url);
const bufDist = dirname(require.resolve('@bufbuild/cel')).replace(/cjs$/, 'esm');
const { check: bufCheck } = await import(join(bufDist, 'check.js'));
const { protoTypeToCelType } = await import(join(bufDist, 'checker.js'));

const byTest = process.argv.includes('--by-subsection');
const asJson = process.argv.includes('--json');
const registry = getTestRegistry();

/** Sections whose features kube-apiserver 1.27's CEL environment has (the rest are protobuf messages, enums,
 * wrappers, and extensions 1.27 does not enable: optionals, bindings, math, encoders, block, two-variable macros). */
export const kubernetesSections = new Set([
  'basic', 'comparisons', 'conversions', 'fields', 'fp_math', 'integer_math', 'lists', 'logic', 'macros', 'parse',
  'plumbing', 'string', 'string_ext', 'timestamps', 'type_deductions',
]);

// ---- expected values, normalized so that both engines' outputs compare with one function ----

function fromValue(value) {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return { t: 'null' };
    case 'boolValue': return { t: 'bool', v: k.value };
    case 'int64Value': return { t: 'int', v: BigInt(k.value) };
    case 'uint64Value': return { t: 'uint', v: BigInt(k.value) };
    case 'doubleValue': return { t: 'double', v: k.value };
    case 'stringValue': return { t: 'string', v: k.value };
    case 'bytesValue': return { t: 'bytes', v: Buffer.from(k.value).toString('hex') };
    case 'listValue': return { t: 'list', v: k.value.values.map(fromValue) };
    case 'mapValue': return { t: 'map', v: k.value.entries.map((e) => [fromValue(e.key), fromValue(e.value)]) };
    case 'typeValue': return { t: 'type', v: k.value };
    case 'enumValue': return { t: 'int', v: BigInt(k.value.value) };
    case 'objectValue': {
      const msg = anyUnpack(k.value, registry);
      if (msg?.$typeName === 'google.protobuf.Timestamp' || msg?.$typeName === 'google.protobuf.Duration') {
        return { t: msg.$typeName === 'google.protobuf.Timestamp' ? 'timestamp' : 'duration', v: BigInt(msg.seconds) * 1_000_000_000n + BigInt(msg.nanos) };
      }
      return { t: 'message', v: k.value.typeUrl };
    }
    default: return { t: 'unknown' };
  }
}

function sameValue(a, b) {
  if (a.t !== b.t) {
    // Kubernetes has no enum types; an enum compares as the int it is.
    return false;
  }
  switch (a.t) {
    case 'null': return true;
    case 'double': return Number.isNaN(a.v) ? Number.isNaN(b.v) : a.v === b.v;
    case 'list': return a.v.length === b.v.length && a.v.every((x, i) => sameValue(x, b.v[i]));
    case 'map':
      return a.v.length === b.v.length && a.v.every(([k, v]) => b.v.some(([k2, v2]) => sameValue(k, k2) && sameValue(v, v2)));
    case 'message': return false;
    default: return a.v === b.v;
  }
}

// ---- @marcbachmann/cel-js ----

function celJsType(t) {
  const k = t?.typeKind;
  switch (k?.case) {
    case 'primitive': return ['', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][k.value];
    case 'wellKnown': return ['', 'dyn', 'google.protobuf.Timestamp', 'google.protobuf.Duration'][k.value];
    case 'listType': return `list<${celJsType(k.value.elemType)}>`;
    case 'mapType': return `map<${celJsType(k.value.keyType)}, ${celJsType(k.value.valueType)}>`;
    case 'dyn': return 'dyn';
    case 'null': return 'null_type';
    case 'type': return 'type';
    case 'wrapper': return 'dyn';
    case 'abstractType': return k.value.name === 'optional_type' ? `optional<${celJsType(k.value.parameterTypes[0])}>` : undefined;
    default: return undefined; // message types: cel-js has no protobuf messages
  }
}

function toCelJs(value) {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return null;
    case 'boolValue': case 'stringValue': case 'doubleValue': return k.value;
    case 'int64Value': return BigInt(k.value);
    case 'uint64Value': return new UnsignedInt(BigInt(k.value));
    case 'bytesValue': return new Uint8Array(k.value);
    case 'listValue': return k.value.values.map(toCelJs);
    case 'mapValue': {
      const m = new Map();
      for (const e of k.value.entries) m.set(toCelJs(e.key), toCelJs(e.value));
      return m;
    }
    case 'enumValue': return BigInt(k.value.value);
    default: throw new Error(`binding kind ${k.case} not supported`);
  }
}

function fromCelJs(v) {
  if (v === null) return { t: 'null' };
  switch (typeof v) {
    case 'boolean': return { t: 'bool', v };
    case 'bigint': return { t: 'int', v };
    case 'number': return { t: 'double', v };
    case 'string': return { t: 'string', v };
  }
  if (v instanceof UnsignedInt) return { t: 'uint', v: v.value };
  if (v instanceof Uint8Array) return { t: 'bytes', v: Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return { t: 'list', v: v.map(fromCelJs) };
  if (v instanceof Date) return { t: 'timestamp', v: BigInt(v.getTime()) * 1_000_000n };
  if (v instanceof CelJsDuration) return { t: 'duration', v: v.seconds * 1_000_000_000n + BigInt(v.nanos) };
  if (v instanceof Map) return { t: 'map', v: [...v].map(([k, x]) => [fromCelJs(k), fromCelJs(x)]) };
  if (v?.constructor?.name === 'Type') return { t: 'type', v: v.name };
  if (v?.constructor === Object || Object.getPrototypeOf(v) === null) {
    return { t: 'map', v: Object.entries(v).map(([k, x]) => [{ t: 'string', v: k }, fromCelJs(x)]) };
  }
  return { t: 'other' };
}

function celJsEnv(test, checking) {
  const declared = checking && !test.disableCheck;
  const env = new CelJsEnvironment({
    unlistedVariablesAreDyn: !declared,
    homogeneousAggregateLiterals: false,
    enableOptionalTypes: true,
  });
  if (declared) {
    for (const decl of test.typeEnv) {
      if (decl.declKind.case === 'ident') {
        const type = celJsType(decl.declKind.value.type);
        if (type === undefined) throw new Error('undeclarable type');
        env.registerVariable(decl.name, type);
      } else if (decl.declKind.case === 'function') {
        for (const o of decl.declKind.value.overloads) {
          const params = o.params.map(celJsType);
          const result = celJsType(o.resultType);
          if (params.includes(undefined) || result === undefined) throw new Error('undeclarable function');
          const sig = o.isInstanceFunction
            ? `${params[0]}.${decl.name}(${params.slice(1).join(', ')}): ${result}`
            : `${decl.name}(${params.join(', ')}): ${result}`;
          env.registerFunction(sig, () => null);
        }
      }
    }
  }
  return env;
}

function runCelJs(test, checking) {
  const env = celJsEnv(test, checking);
  const parsed = env.parse(test.expr);
  if (checking && !test.disableCheck) {
    const checked = parsed.check();
    if (!checked.valid) return { error: 'check', message: checked.error?.message };
  }
  const bindings = {};
  for (const [k, v] of Object.entries(test.bindings)) {
    if (v.kind.case !== 'value') throw new Error('non-value binding');
    bindings[k] = toCelJs(v.kind.value);
  }
  try {
    return { value: fromCelJs(parsed(bindings)) };
  } catch (e) {
    return { error: 'eval', message: e.message };
  }
}

// ---- @bufbuild/cel ----

function fromBuf(v) {
  if (v === null) return { t: 'null' };
  switch (typeof v) {
    case 'boolean': return { t: 'bool', v };
    case 'bigint': return { t: 'int', v };
    case 'number': return { t: 'double', v };
    case 'string': return { t: 'string', v };
  }
  if (buf.isCelUint(v)) return { t: 'uint', v: v.value };
  if (v instanceof Uint8Array) return { t: 'bytes', v: Buffer.from(v).toString('hex') };
  if (buf.isCelType(v)) return { t: 'type', v: v.name };
  if (buf.isCelList(v)) return { t: 'list', v: [...v].map(fromBuf) };
  if (buf.isCelMap(v)) return { t: 'map', v: [...v.entries()].map(([k, x]) => [fromBuf(k), fromBuf(x)]) };
  const name = v?.desc?.typeName;
  if (name === 'google.protobuf.Timestamp' || name === 'google.protobuf.Duration') {
    return { t: name.endsWith('Timestamp') ? 'timestamp' : 'duration', v: BigInt(v.message.seconds) * 1_000_000_000n + BigInt(v.message.nanos) };
  }
  if (name) return { t: 'message', v: name };
  return { t: 'other' };
}

function toBuf(value) {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue': return null;
    case 'uint64Value': return buf.celUint(k.value);
    case 'listValue': return buf.celList(k.value.values.map(toBuf));
    case 'mapValue': {
      const m = new Map();
      for (const e of k.value.entries) m.set(toBuf(e.key), toBuf(e.value));
      return buf.celMap(m);
    }
    case 'objectValue': return anyUnpack(k.value, registry);
    case 'enumValue': return BigInt(k.value.value);
    case 'typeValue': throw new Error('type binding');
    default: return k.value;
  }
}

function runBuf(test, checking) {
  const variables = {};
  if (checking && !test.disableCheck) {
    for (const decl of test.typeEnv) {
      if (decl.declKind.case === 'ident') variables[decl.name] = protoTypeToCelType(decl.declKind.value.type);
    }
  }
  const env = buf.celEnv({ registry, namespace: test.container, funcs: bufStrings, variables });
  const parsed = buf.parse(test.expr);
  let program = parsed;
  if (checking && !test.disableCheck) {
    try {
      program = bufCheck(env, parsed);
    } catch (e) {
      return { error: 'check', message: e.message };
    }
  }
  const evaluate = buf.plan(env, program);
  const bindings = {};
  for (const [k, v] of Object.entries(test.bindings)) {
    if (v.kind.case !== 'value') throw new Error('non-value binding');
    bindings[k] = toBuf(v.kind.value);
  }
  const result = evaluate(bindings);
  if (buf.isCelError(result)) return { error: 'eval', message: result.message };
  return { value: fromBuf(result) };
}

// ---- the harness ----

function judge(test, run) {
  let outcome;
  try {
    outcome = run();
  } catch (e) {
    return false; // parse errors, unsupported declarations or bindings, engine exceptions
  }
  const m = test.resultMatcher;
  switch (m.case) {
    case 'value': return outcome.value !== undefined && sameValue(fromValue(m.value), outcome.value);
    case undefined: return outcome.value !== undefined && sameValue({ t: 'bool', v: true }, outcome.value);
    case 'evalError': case 'anyEvalErrors': return outcome.error === 'eval';
    case 'typedResult': {
      if (outcome.error !== undefined) return false;
      return m.value.result === undefined || sameValue(fromValue(m.value.result), outcome.value);
    }
    default: return false; // unknowns: neither engine has partial evaluation
  }
}

const engines = [
  { name: 'cel-js', run: runCelJs },
  { name: 'bufbuild', run: runBuf },
];
const modes = ['eval', 'check+eval'];

const rows = [];
function walk(suite, path) {
  for (const s of suite.suites) walk(s, [...path, s.name]);
  if (suite.tests.length === 0) return;
  const key = byTest ? path.join('/') : path[0];
  let row = rows.find((r) => r.section === key);
  if (!row) rows.push((row = { section: key, total: 0, counts: {} }));
  for (const t of suite.tests) {
    row.total++;
    for (const e of engines) {
      for (const mode of modes) {
        const id = `${e.name} ${mode}`;
        if (judge(t.original, () => e.run(t.original, mode === 'check+eval'))) row.counts[id] = (row.counts[id] ?? 0) + 1;
      }
    }
  }
}
walk(getConformanceSuite(), []);

const columns = engines.flatMap((e) => modes.map((m) => `${e.name} ${m}`));
const sum = (filter) => {
  const r = { total: 0, counts: {} };
  for (const row of rows.filter(filter)) {
    r.total += row.total;
    for (const c of columns) r.counts[c] = (r.counts[c] ?? 0) + (row.counts[c] ?? 0);
  }
  return r;
};
const top = (row) => row.section.split('/')[0];
const k8s = sum((row) => kubernetesSections.has(top(row)));
const all = sum(() => true);

if (asJson) {
  console.log(JSON.stringify({ rows, kubernetes: k8s, all }, null, 2));
} else {
  const pad = (s, n) => String(s).padEnd(n);
  const width = Math.max(...rows.map((r) => r.section.length), 22) + 2;
  console.log(pad('section', width) + pad('tests', 7) + columns.map((c) => pad(c, 21)).join(''));
  const line = (name, r) => console.log(pad(name, width) + pad(r.total, 7) + columns.map((c) => pad(r.counts[c] ?? 0, 21)).join(''));
  for (const row of rows) line((kubernetesSections.has(top(row)) ? '* ' : '  ') + row.section, row);
  line('= kubernetes 1.27 (*)', k8s);
  line('= all sections', all);
}
