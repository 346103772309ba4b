#!/usr/bin/env node
/**
 * Generates packages/protobuf/generated/protobuf-messages.cjs: an encoder and a decoder per message type of the
 * upstream Kubernetes 1.27 generated.proto files (packages/server/upstream/k8s-1.27/proto/k8s.io/**), written out
 * as plain functions, so the server and the client convert between their JSON-shaped objects and the wire with no
 * reflection per field (the protobuf package loads the file on the first protobuf request and hands it the wire
 * reader, writer and JSON helpers).
 *
 * Run by `npm run generate` after the schemas (it reads generated/schemas.json), or alone:
 * `node packages/server/scripts/generate-protobuf.mjs`.
 *
 * How a field maps to JSON comes from the .proto and the OpenAPI schema of the same Go type (go-to-protobuf names
 * fields after their JSON names, with a few exceptions recovered here): the JSON name of every field (`Webhooks` →
 * `webhooks`, `uID` → `uid`, `xKubernetesListType` → `x-kubernetes-list-type`, `ref` → `$ref`), embedded Go structs
 * that JSON inlines (`Volume.volumeSource`, `Probe.handler`: message fields the schema does not name), which
 * fields the schema requires (a zero value decoded is kept), and the types whose JSON form is not an object of
 * their fields (IntOrString, Quantity, Time, MicroTime, Duration, raw JSON, string-list wrappers, the
 * JSONSchemaProps unions).
 *
 * Encoders write fields in field-number order, as Go does; map entries sorted by key, as Go's generated
 * marshallers write them. Decoders build each object with its properties in the .proto's declaration order (the
 * order the JSON schema lists them), leave out what Go writes for unset fields (empty strings, zero times, empty
 * lists and maps) and refuse a known field sent with another wire type.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoRootDir = join(serverDir, 'upstream', 'k8s-1.27', 'proto');
const generatedDir = join(serverDir, 'generated');
const outputFile = join(serverDir, '..', 'protobuf', 'generated', 'protobuf-messages.cjs');

const apimachinery = '.k8s.io.apimachinery.pkg';
const specialByName = {
  [`${apimachinery}.util.intstr.IntOrString`]: 'intOrString',
  [`${apimachinery}.api.resource.Quantity`]: 'quantity',
  [`${apimachinery}.apis.meta.v1.Time`]: 'time',
  [`${apimachinery}.apis.meta.v1.MicroTime`]: 'microTime',
  [`${apimachinery}.apis.meta.v1.Duration`]: 'duration',
  [`${apimachinery}.apis.meta.v1.FieldsV1`]: 'rawJson',
  [`${apimachinery}.runtime.RawExtension`]: 'rawJson',
};
const apiextensionsSpecial = {
  JSON: 'rawJson',
  JSONSchemaPropsOrArray: 'schemaOrArray',
  JSONSchemaPropsOrBool: 'schemaOrBool',
  JSONSchemaPropsOrStringArray: 'schemaOrStringArray',
};

/** The JSON form of a message type, when it is not an object of its fields. */
function specialKind(type) {
  const direct = specialByName[type.fullName];
  if (direct) return direct;
  if (type.fullName.startsWith('.k8s.io.apiextensions_apiserver.')) {
    const s = apiextensionsSpecial[type.name];
    if (s) return s;
  }
  // Go named string slices (`ExtraValue`, `Verbs`) become a message with one repeated `items` field; JSON has the list.
  const only = type.fieldsArray.length === 1 ? type.fieldsArray[0] : undefined;
  if (only && only.name === 'items' && only.repeated && !only.resolvedType && !type.name.endsWith('List')) return 'stringList';
  return undefined;
}

/** The OpenAPI schema name of a message type (`.k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`). */
function schemaNameOf(type) {
  return type.fullName
    .replace(/^\.k8s\.io\./, 'io.k8s.')
    .replace('.apiextensions_apiserver.', '.apiextensions-apiserver.')
    .replace('.kube_aggregator.', '.kube-aggregator.');
}

const normalize = (name) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const scalarTypes = new Set(['string', 'bool', 'bytes', 'int32', 'int64', 'double']);

/** Every field of a type with its JSON facts. */
function fieldPlans(type, schemas) {
  const schema = schemas[schemaNameOf(type)];
  const props = Object.keys(schema?.properties ?? {});
  const byNormal = new Map(props.map((p) => [normalize(p), p]));
  const required = new Set(schema?.required ?? []);
  return type.fieldsArray.map((f) => {
    const message = f.resolvedType && 'fieldsArray' in f.resolvedType ? f.resolvedType : undefined;
    if (f.resolvedType && !message) throw new Error(`${type.fullName}.${f.name}: enums are not expected`);
    if (!message && !scalarTypes.has(f.type)) throw new Error(`${type.fullName}.${f.name}: scalar type ${f.type} is not handled`);
    if (f.map && f.keyType !== 'string') throw new Error(`${type.fullName}.${f.name}: map keys of type ${f.keyType} are not handled`);
    const json = props.includes(f.name) ? f.name : byNormal.get(normalize(f.name));
    const inline = schema !== undefined && json === undefined && message !== undefined && specialKind(message) === undefined;
    const name = json ?? f.name;
    return {
      name: f.name, id: f.id, json: name, repeated: f.repeated && !f.map, map: f.map, message, scalar: message ? undefined : f.type,
      inline, required: required.has(name),
    };
  });
}

/** Every message type under a namespace. */
function allTypes(ns, out = []) {
  for (const nested of ns.nestedArray ?? []) {
    if ('fieldsArray' in nested) out.push(nested);
    allTypes(nested, out);
  }
  return out;
}

function loadRoot() {
  const protobuf = createRequire(join(serverDir, 'package.json'))('protobufjs');
  const files = [];
  const walk = (dir, rel) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}/${entry.name}`);
      else if (entry.name === 'generated.proto') files.push(`${rel}/${entry.name}`);
    }
  };
  walk(join(protoRootDir, 'k8s.io'), 'k8s.io');
  files.sort();
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(protoRootDir, target);
  root.loadSync(files, { keepCase: true });
  root.resolveAll();
  return { root, files };
}

/** A JavaScript name for a type's functions (`.k8s.io.api.core.v1.Pod` → `api_core_v1_Pod`). */
function ident(type) {
  return type.fullName.replace(/^\.k8s\.io\./, '').replace(/\./g, '_');
}

/** The bytes of a tag as writer calls. */
function tagWrite(id, wireType) {
  const t = (id << 3) | wireType;
  if (t < 128) return `w.byte(${t});`;
  if (t < 16384) return `w.byte2(${(t & 127) | 128}, ${t >>> 7});`;
  throw new Error(`field ${id} too large`);
}

const wireTypeOf = (scalar) => (scalar === 'string' || scalar === 'bytes' ? 2 : scalar === 'double' ? 1 : 0);

/** Code writing a scalar JSON value `x` as a field's value. */
function scalarWrite(scalar, x) {
  switch (scalar) {
    case 'string': return `w.string(typeof ${x} === 'string' ? ${x} : String(${x}));`;
    case 'bool': return `w.bool(${x} === true);`;
    case 'bytes': return `w.bytes(toBytes(${x}));`;
    case 'int32': return `w.int32(typeof ${x} === 'number' ? ${x} : toNumber(${x}));`;
    case 'int64': return `w.int64(typeof ${x} === 'number' ? ${x} : toNumber(${x}));`;
    case 'double': return `w.double(typeof ${x} === 'number' ? ${x} : toNumber(${x}));`;
    default: throw new Error(`scalar ${scalar}`);
  }
}

/** Code reading a scalar field's value (JSON form) within `end`. */
function scalarRead(scalar, end) {
  switch (scalar) {
    case 'string': return `r.string(${end})`;
    case 'bool': return 'r.bool()';
    case 'bytes': return `r.base64(${end})`;
    case 'int32': return 'r.int32()';
    case 'int64': return 'r.int64()';
    case 'double': return `r.double(${end})`;
    default: throw new Error(`scalar ${scalar}`);
  }
}

const isObj = (x) => `${x} !== null && typeof ${x} === 'object' && !isArray(${x})`;

class Generator {
  constructor(schemas) {
    this.schemas = schemas;
    this.plans = new Map();
    this.lines = [];
  }

  plan(type) {
    let p = this.plans.get(type);
    if (!p) {
      p = { type, special: specialKind(type), fields: fieldPlans(type, this.schemas) };
      this.plans.set(type, p);
    }
    return p;
  }

  field(type, name) {
    const f = this.plan(type).fields.find((x) => x.name === name);
    if (!f) throw new Error(`${type.fullName} has no field ${name}`);
    return f;
  }

  /**
   * Code checking that JSON value `x` converts to a message of special `type` (sets locals it needs), or '' when
   * every value does.
   */
  specialCheck(type, x, local) {
    switch (this.plan(type).special) {
      case 'time':
      case 'microTime':
        return `const ${local} = parseTime(${x}); if (${local} !== undefined)`;
      case 'duration':
        return `const ${local} = parseDuration(${x}); if (${local} !== undefined)`;
      default:
        return '';
    }
  }

  /** Code writing the fields of special `type` for JSON value `x` (after its check passed). */
  specialWrite(type, x, local) {
    const p = this.plan(type);
    const f = (name) => this.field(type, name);
    const tag = (name, wt) => tagWrite(f(name).id, wt);
    switch (p.special) {
      case 'intOrString':
        return `if (typeof ${x} === 'string') { ${tag('type', 0)} w.byte(1); ${tag('intVal', 0)} w.byte(0); ${tag('strVal', 2)} w.string(${x}); }` +
          ` else { ${tag('type', 0)} w.byte(0); ${tag('intVal', 0)} w.int32(typeof ${x} === 'number' ? ${x} : toNumber(${x})); ${tag('strVal', 2)} w.byte(0); }`;
      case 'quantity':
        return `${tag('string', 2)} w.string(typeof ${x} === 'string' ? ${x} : String(${x}));`;
      case 'time':
      case 'microTime':
        return `${tag('seconds', 0)} w.int64(${local}.seconds); ${tag('nanos', 0)} w.int32(${local}.nanos);`;
      case 'duration':
        return `${tag('duration', 0)} w.int64(${local});`;
      case 'rawJson': {
        const only = p.fields[0];
        return `${tagWrite(only.id, 2)} w.string(jsonText(${x}));`;
      }
      case 'stringList': {
        const only = p.fields[0];
        return `if (isArray(${x})) for (let j = 0; j < ${x}.length; j++) { const s = ${x}[j]; ${tagWrite(only.id, 2)} w.string(typeof s === 'string' ? s : String(s)); }`;
      }
      case 'schemaOrArray': {
        const schema = f('schema');
        const list = f('jSONSchemas');
        const e = `e_${ident(schema.message)}`;
        return `if (isArray(${x})) { for (let j = 0; j < ${x}.length; j++) { const s = ${x}[j]; ${tagWrite(list.id, 2)} const b = w.begin(); if (${isObj('s')}) ${e}(w, s); w.end(b); } }` +
          ` else if (${isObj(x)}) { ${tagWrite(schema.id, 2)} const b = w.begin(); ${e}(w, ${x}); w.end(b); }`;
      }
      case 'schemaOrBool': {
        const schema = f('schema');
        const e = `e_${ident(schema.message)}`;
        return `if (typeof ${x} === 'boolean') { ${tag('allows', 0)} w.bool(${x}); }` +
          ` else { ${tag('allows', 0)} w.byte(1); if (${isObj(x)}) { ${tagWrite(schema.id, 2)} const b = w.begin(); ${e}(w, ${x}); w.end(b); } }`;
      }
      case 'schemaOrStringArray': {
        const schema = f('schema');
        const prop = f('property');
        const e = `e_${ident(schema.message)}`;
        return `if (isArray(${x})) { for (let j = 0; j < ${x}.length; j++) { const s = ${x}[j]; ${tagWrite(prop.id, 2)} w.string(typeof s === 'string' ? s : String(s)); } }` +
          ` else if (${isObj(x)}) { ${tagWrite(schema.id, 2)} const b = w.begin(); ${e}(w, ${x}); w.end(b); }`;
      }
      default:
        throw new Error(`special ${p.special}`);
    }
  }

  /** Code writing JSON value `x` as the message of field type `type`, tag included; `ok` guards skip it. */
  messageValue(type, x, tagCode, { emptyWhenNot }) {
    const p = this.plan(type);
    if (!p.special) {
      const guard = isObj(x);
      if (emptyWhenNot) return `${tagCode} { const b = w.begin(); if (${guard}) e_${ident(type)}(w, ${x}); w.end(b); }`;
      return `if (${guard}) { ${tagCode} const b = w.begin(); e_${ident(type)}(w, ${x}); w.end(b); }`;
    }
    const check = this.specialCheck(type, x, 'c');
    const write = this.specialWrite(type, x, 'c');
    if (check === '') return `${tagCode} { const b = w.begin(); ${write} w.end(b); }`;
    if (emptyWhenNot) return `${tagCode} { const b = w.begin(); ${check} { ${write} } w.end(b); }`;
    return `{ ${check} { ${tagCode} const b = w.begin(); ${write} w.end(b); } }`;
  }

  /** Whether a (special) message's conversion can leave a field out. */
  mayBeAbsent(type) {
    const p = this.plan(type);
    return !p.special ? true : p.special === 'time' || p.special === 'microTime' || p.special === 'duration';
  }

  encoder(type) {
    const p = this.plan(type);
    const out = [`function e_${ident(type)}(w, v) {`, '  let n = 0;'];
    for (const f of [...p.fields].sort((a, b) => a.id - b.id)) {
      const x = `x${f.id}`;
      if (f.inline) {
        out.push(`  { const s = w.pos; ${tagWrite(f.id, 2)} const b = w.begin(); if (e_${ident(f.message)}(w, v) > 0) { w.end(b); n++; } else w.rewind(s); }`);
        continue;
      }
      out.push(`  const ${x} = v[${JSON.stringify(f.json)}];`);
      if (f.map) {
        const value = f.message
          ? this.messageValue(f.message, 'y', `${tagWrite(2, 2)}`, { emptyWhenNot: false })
          : `${tagWrite(2, wireTypeOf(f.scalar))} ${scalarWrite(f.scalar, 'y')}`;
        // The entry (key, value) is written only when the value converts: checks come before the entry's tag.
        const entry = f.message && this.mayBeAbsent(f.message)
          ? this.mapEntryGuarded(f, value)
          : `${tagWrite(f.id, 2)} const b = w.begin(); w.byte(10); w.string(k); ${value} w.end(b);`;
        out.push(`  if (${x} != null && ${isObj(x)}) { n++; const ks = sortedKeys(${x}); for (let j = 0; j < ks.length; j++) { const k = ks[j]; const y = ${x}[k]; if (y == null) continue; ${entry} } }`);
      } else if (f.repeated) {
        const item = f.message
          ? this.messageValue(f.message, 'y', tagWrite(f.id, 2), { emptyWhenNot: true })
          : `${tagWrite(f.id, wireTypeOf(f.scalar))} ${scalarWrite(f.scalar, 'y')}`;
        out.push(`  if (isArray(${x})) { n++; for (let j = 0; j < ${x}.length; j++) { const y = ${x}[j]; if (y == null) continue; ${item} } }`);
      } else if (f.message) {
        const value = this.messageValue(f.message, x, tagWrite(f.id, 2), { emptyWhenNot: false });
        out.push(`  if (${x} != null) { const s = w.pos; ${value} if (w.pos !== s) n++; }`);
      } else {
        out.push(`  if (${x} != null) { ${tagWrite(f.id, wireTypeOf(f.scalar))} ${scalarWrite(f.scalar, x)} n++; }`);
      }
    }
    out.push('  return n;', '}');
    return out.join('\n');
  }

  /** A map entry whose message value may not convert (a malformed time): the check decides whether it is written. */
  mapEntryGuarded(f, _value) {
    const type = f.message;
    const p = this.plan(type);
    if (!p.special) {
      return `if (!(${isObj('y')})) continue; ${tagWrite(f.id, 2)} const b = w.begin(); w.byte(10); w.string(k); w.byte(18); const c = w.begin(); e_${ident(type)}(w, y); w.end(c); w.end(b);`;
    }
    const check = this.specialCheck(type, 'y', 'c');
    const write = this.specialWrite(type, 'y', 'c');
    return `${check} { ${tagWrite(f.id, 2)} const b = w.begin(); w.byte(10); w.string(k); w.byte(18); const d = w.begin(); ${write} w.end(d); w.end(b); }`;
  }

  /** Code reading a message of `type` (its JSON value) within `end`. */
  messageRead(type, end) {
    return `d_${ident(type)}(r, r.sub(${end}))`;
  }

  decoder(type) {
    const p = this.plan(type);
    const known = `K_${ident(type)}`;
    const out = [`const ${known} = [${p.fields.map((f) => f.id).join(', ')}];`, `function d_${ident(type)}(r, end) {`, '  r.enter();'];
    const locals = p.fields.map((f) => `f${f.id}`);
    const initial = (f) => {
      if (p.special === 'intOrString') return f.name === 'strVal' ? "''" : '0';
      if (p.special === 'quantity') return "''";
      if (p.special === 'time' || p.special === 'microTime' || p.special === 'duration') return '0';
      if (p.special === 'schemaOrBool' && f.name === 'allows') return 'false';
      return 'undefined';
    };
    if (locals.length > 0) out.push(`  let ${p.fields.map((f) => `f${f.id} = ${initial(f)}`).join(', ')};`);
    out.push('  while (r.pos < end) {', '    const t = r.tag();', '    switch (t) {');
    for (const f of p.fields) {
      const local = `f${f.id}`;
      if (f.map) {
        const valueTag = f.message ? 18 : (2 << 3) | wireTypeOf(f.scalar);
        const value = f.message ? this.messageRead(f.message, 'e') : scalarRead(f.scalar, 'e');
        const initialValue = f.message ? 'undefined' : f.scalar === 'string' || f.scalar === 'bytes' ? "''" : f.scalar === 'bool' ? 'false' : '0';
        out.push(`      case ${(f.id << 3) | 2}: { const e = r.sub(end); let k = '', y = ${initialValue}; while (r.pos < e) { const u = r.tag(); switch (u) { case 10: k = r.string(e); break; case ${valueTag}: y = ${value}; break; default: r.skip(u, e, mapEntryFields); } } r.done(e); if (${local} === undefined) ${local} = {}; if (y !== undefined) setEntry(${local}, k, y); else delete ${local}[k]; break; }`);
      } else if (f.repeated) {
        if (f.message) {
          out.push(`      case ${(f.id << 3) | 2}: { const y = ${this.messageRead(f.message, 'end')}; (${local} ??= []).push(y === undefined ? null : y); break; }`);
        } else if (f.scalar === 'string' || f.scalar === 'bytes') {
          out.push(`      case ${(f.id << 3) | 2}: (${local} ??= []).push(${scalarRead(f.scalar, 'end')}); break;`);
        } else {
          const wt = wireTypeOf(f.scalar);
          out.push(`      case ${(f.id << 3) | wt}: (${local} ??= []).push(${scalarRead(f.scalar, 'end')}); break;`);
          out.push(`      case ${(f.id << 3) | 2}: { const e = r.sub(end); const a = (${local} ??= []); while (r.pos < e) a.push(${scalarRead(f.scalar, 'e')}); r.done(e); break; }`);
        }
      } else if (f.message) {
        out.push(`      case ${(f.id << 3) | 2}: ${local} = ${this.messageRead(f.message, 'end')}; break;`);
      } else {
        // Raw JSON fields are read as the JSON they hold; other bytes fields are base64 in JSON.
        const read = p.special === 'rawJson' ? 'r.json(end)' : scalarRead(f.scalar, 'end');
        out.push(`      case ${(f.id << 3) | wireTypeOf(f.scalar)}: ${local} = ${read}; break;`);
      }
    }
    out.push(`      default: r.skip(t, end, ${known});`, '    }', '  }', '  r.leave(end);');
    out.push(...this.result(p));
    out.push('}');
    return out.join('\n');
  }

  /** The code returning a decoded message's JSON value. */
  result(p) {
    const f = (name) => `f${p.fields.find((x) => x.name === name).id}`;
    switch (p.special) {
      case 'intOrString': return [`  return ${f('type')} === 1 ? ${f('strVal')} : ${f('intVal')};`];
      case 'quantity': return [`  return ${f('string')};`];
      case 'time': return [`  return timeJson(${f('seconds')}, ${f('nanos')});`];
      case 'microTime': return [`  return microTimeJson(${f('seconds')}, ${f('nanos')});`];
      case 'duration': return [`  return durationJson(${f('duration')});`];
      case 'rawJson': return [`  return ${f(p.fields[0].name)};`];
      case 'stringList': return [`  return ${f('items')} === undefined ? [] : ${f('items')};`];
      case 'schemaOrArray': return [`  return ${f('jSONSchemas')} !== undefined ? ${f('jSONSchemas')} : ${f('schema')};`];
      case 'schemaOrBool': return [`  return ${f('schema')} !== undefined ? ${f('schema')} : ${f('allows')} === true;`];
      case 'schemaOrStringArray': return [`  return ${f('property')} !== undefined ? ${f('property')} : ${f('schema')} !== undefined ? ${f('schema')} : [];`];
      default: break;
    }
    const out = ['  const o = {};'];
    for (const field of p.fields) {
      const local = `f${field.id}`;
      const key = JSON.stringify(field.json);
      if (field.inline) out.push(`  if (${local} !== undefined) Object.assign(o, ${local});`);
      else if (field.map || field.message || field.repeated || field.required || (field.scalar !== 'string' && field.scalar !== 'bytes')) {
        out.push(`  if (${local} !== undefined) o[${key}] = ${local};`);
      } else {
        // Go writes every non-pointer string: an empty one is an unset field, left out as `omitempty` does.
        out.push(`  if (${local} !== undefined && ${local} !== '') o[${key}] = ${local};`);
      }
    }
    out.push('  return o;');
    return out;
  }
}

/** Writes the protobuf package's generated/protobuf-messages.cjs; returns how many message types it has. */
export function generateProtobuf(write = writeFileSync) {
  const schemas = JSON.parse(readFileSync(join(generatedDir, 'schemas.json'), 'utf8'));
  const { root, files } = loadRoot();
  const types = allTypes(root).sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0));
  const g = new Generator(schemas);
  const body = [];
  for (const type of types) {
    const p = g.plan(type);
    if (!p.special) body.push(g.encoder(type));
    body.push(g.decoder(type));
  }
  const table = types.filter((t) => !g.plan(t).special).map((t) => {
    // A list type's items field: lists are also written from items encoded beforehand (streamed lists).
    const items = g.plan(t).fields.find((f) => f.name === 'items' && f.repeated && f.message);
    return `    ${JSON.stringify(t.fullName.slice(1))}: [e_${ident(t)}, d_${ident(t)}${items ? `, ${items.id}` : ''}],`;
  });
  const text = [
    '// Generated by packages/server/scripts/generate-protobuf.mjs from the Kubernetes 1.27 generated.proto files in',
    '// packages/server/upstream/k8s-1.27/proto/ (see its NOTICE) and packages/server/generated/schemas.json. Do not edit:',
    '// run `npm run generate`.',
    `// ${files.length} .proto files, ${types.length} message types.`,
    "'use strict';",
    '',
    '/**',
    ' * The encoders (`e_*(writer, object)`: writes the fields of a JSON-shaped object, returns how many were present)',
    ' * and decoders (`d_*(reader, end)`: the JSON value of the message ending at `end`) of every message type, given',
    ' * the helpers of src/generated-messages.ts; returns the encoder and decoder of every type whose JSON',
    ' * form is an object by full name, with the field number of the items of a list type.',
    ' */',
    'module.exports = function messages(rt) {',
    '  const { toNumber, toBytes, jsonText, parseTime, timeJson, microTimeJson, parseDuration, durationJson, setEntry } = rt;',
    '  const isArray = Array.isArray;',
    '  /** An object\'s keys in Go\'s map order (sorted); most maps are written already in order. */',
    '  function sortedKeys(o) {',
    '    const ks = Object.keys(o);',
    '    for (let i = 1; i < ks.length; i++) if (ks[i - 1] > ks[i]) return ks.sort();',
    '    return ks;',
    '  }',
    '  const mapEntryFields = [1, 2];',
    '',
    ...body.map((b) => b.replace(/^/gm, '  ')),
    '',
    '  return {',
    ...table,
    '  };',
    '};',
    '',
  ].join('\n');
  write(outputFile, text);
  return types.length;
}

if (process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const count = generateProtobuf();
  console.log(`generated the encoders and decoders of ${count} protobuf message types`);
}
