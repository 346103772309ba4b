/**
 * JSON objects ↔ protobufjs messages for the Kubernetes types, following the JSON conventions of apimachinery:
 * IntOrString is a number or a string, Quantity a string, Time/MicroTime RFC 3339 text, Duration Go duration text,
 * RawExtension/FieldsV1/apiextensions JSON embedded JSON, `bytes` base64, Go string-list types plain lists,
 * inlined structs flattened. Written by hand because protobufjs' own toObject/fromObject know only proto3 JSON.
 *
 * Fields absent from the JSON are not written. Go writes every non-pointer field, so a message from a Go client
 * carries empty strings and zero times for unset fields: those are left out of the JSON again (as `omitempty`
 * does) unless the schema requires the field.
 */
import type * as Protobuf from 'protobufjs';
import { messagePlan, type FieldPlan, type MessagePlan } from './message-plan.js';
import { formatGoDuration, formatMicroTime, formatTime, parseGoDuration, parseRfc3339 } from './go-time.js';

type Json = Record<string, unknown>;
type Message = Record<string, unknown>;

/** Decodes bytes nested in a RawExtension that are themselves a binary envelope (set by the codec). */
export type NestedDecoder = (bytes: Uint8Array) => unknown;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function jsonBytes(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)), 'utf8');
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

function scalarToProto(kind: NonNullable<FieldPlan['scalar']>, v: unknown): unknown {
  switch (kind) {
    case 'string': return typeof v === 'string' ? v : String(v);
    case 'bool': return v === true;
    case 'bytes': return typeof v === 'string' ? Buffer.from(v, 'base64') : v instanceof Uint8Array ? v : Buffer.alloc(0);
    default: return toNumber(v);
  }
}

function valueToProto(f: FieldPlan, v: unknown): unknown {
  return f.message ? toMessage(f.message, v) : scalarToProto(f.scalar!, v);
}

function specialToProto(plan: MessagePlan, v: unknown): Message | undefined {
  switch (plan.special) {
    case 'intOrString':
      return typeof v === 'string' ? { type: 1, intVal: 0, strVal: v } : { type: 0, intVal: toNumber(v), strVal: '' };
    case 'quantity':
      return { string: typeof v === 'string' ? v : String(v) };
    case 'time':
    case 'microTime': {
      if (typeof v !== 'string') return undefined;
      const t = parseRfc3339(v);
      return t ? { seconds: t.seconds, nanos: t.nanos } : undefined;
    }
    case 'duration': {
      const d = typeof v === 'string' ? parseGoDuration(v) : undefined;
      return d === undefined ? undefined : { duration: d };
    }
    case 'rawJson':
      return { [plan.valueField!]: jsonBytes(v) };
    case 'stringList':
      return { [plan.valueField!]: Array.isArray(v) ? v.map(String) : [] };
    case 'schemaOrArray': {
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      return Array.isArray(v) ? { jSONSchemas: v.map((s) => toMessage(schemaType, s)) } : { schema: toMessage(schemaType, v) };
    }
    case 'schemaOrBool': {
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      return typeof v === 'boolean' ? { allows: v } : { allows: true, schema: toMessage(schemaType, v) };
    }
    case 'schemaOrStringArray': {
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      return Array.isArray(v) ? { property: v.map(String) } : { schema: toMessage(schemaType, v) };
    }
    default:
      return undefined;
  }
}

function fillMessage(plan: MessagePlan, json: Json, out: Message): void {
  for (const f of plan.fields) {
    if (f.inline) {
      const sub: Message = {};
      fillMessage(messagePlan(f.message!), json, sub);
      if (Object.keys(sub).length > 0) out[f.name] = sub;
      continue;
    }
    const v = json[f.json];
    if (v === undefined || v === null) continue;
    if (f.map) {
      if (!isObject(v)) continue;
      const m: Record<string, unknown> = {};
      // Sorted keys, as Go's generated marshallers write maps.
      for (const k of Object.keys(v).sort()) {
        const item = v[k];
        if (item === null || item === undefined) continue;
        const converted = valueToProto(f, item);
        if (converted !== undefined) m[k] = converted;
      }
      out[f.name] = m;
    } else if (f.repeated) {
      if (!Array.isArray(v)) continue;
      out[f.name] = v.filter((x) => x !== null && x !== undefined).map((x) => valueToProto(f, x) ?? {});
    } else {
      const converted = valueToProto(f, v);
      if (converted !== undefined) out[f.name] = converted;
    }
  }
}

/** A protobufjs-encodable plain object for a JSON value of a message type; undefined when the value has no message form. */
export function toMessage(type: Protobuf.Type, json: unknown): Message | undefined {
  const plan = messagePlan(type);
  if (plan.special) return specialToProto(plan, json);
  if (!isObject(json)) return undefined;
  const out: Message = {};
  fillMessage(plan, json, out);
  return out;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function longToNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v !== null && typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

function scalarToJson(kind: NonNullable<FieldPlan['scalar']>, v: unknown): unknown {
  switch (kind) {
    case 'bytes': return Buffer.from(v as Uint8Array).toString('base64');
    case 'long': return longToNumber(v);
    default: return v;
  }
}

function valueToJson(f: FieldPlan, v: unknown, nested: NestedDecoder): unknown {
  return f.message ? fromMessage(f.message, v as Message, nested) : scalarToJson(f.scalar!, v);
}

const envelopePrefix = [0x6b, 0x38, 0x73, 0x00];

function rawToJson(raw: Uint8Array | undefined, nested: NestedDecoder): unknown {
  if (!raw || raw.length === 0) return undefined;
  if (raw.length >= 4 && envelopePrefix.every((b, i) => raw[i] === b)) return nested(raw);
  const text = Buffer.from(raw).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function specialToJson(plan: MessagePlan, msg: Message, nested: NestedDecoder): unknown {
  switch (plan.special) {
    case 'intOrString':
      return longToNumber(msg['type'] ?? 0) === 1 ? (msg['strVal'] ?? '') : (msg['intVal'] ?? 0);
    case 'quantity':
      return msg['string'] ?? '';
    case 'time':
    case 'microTime': {
      const seconds = longToNumber(msg['seconds'] ?? 0);
      const nanos = Number(msg['nanos'] ?? 0);
      // A zero time is how Go writes an unset (non-pointer) time: JSON has none.
      if (seconds === 0 && nanos === 0) return undefined;
      return plan.special === 'time' ? formatTime({ seconds, nanos }) : formatMicroTime({ seconds, nanos });
    }
    case 'duration':
      return formatGoDuration(longToNumber(msg['duration'] ?? 0));
    case 'rawJson':
      return rawToJson(msg[plan.valueField!] as Uint8Array | undefined, nested);
    case 'stringList':
      return [...((msg[plan.valueField!] as string[] | undefined) ?? [])];
    case 'schemaOrArray': {
      const list = msg['jSONSchemas'] as Message[] | undefined;
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      if (list && list.length > 0) return list.map((s) => fromMessage(schemaType, s, nested));
      return msg['schema'] ? fromMessage(schemaType, msg['schema'] as Message, nested) : undefined;
    }
    case 'schemaOrBool': {
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      return msg['schema'] ? fromMessage(schemaType, msg['schema'] as Message, nested) : msg['allows'] === true;
    }
    case 'schemaOrStringArray': {
      const schemaType = plan.fields.find((f) => f.name === 'schema')!.message!;
      const list = msg['property'] as string[] | undefined;
      if (list && list.length > 0) return [...list];
      return msg['schema'] ? fromMessage(schemaType, msg['schema'] as Message, nested) : [];
    }
    default:
      return undefined;
  }
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || (v instanceof Uint8Array && v.length === 0);
}

function fillJson(plan: MessagePlan, msg: Message, out: Json, nested: NestedDecoder): void {
  for (const f of plan.fields) {
    if (!hasOwn(msg, f.name)) continue;
    const v = msg[f.name];
    if (v === null || v === undefined) continue;
    if (f.inline) {
      fillJson(messagePlan(f.message!), v as Message, out, nested);
      continue;
    }
    if (f.map) {
      const keys = Object.keys(v as object);
      if (keys.length === 0) continue;
      const m: Json = {};
      for (const k of keys) {
        const converted = valueToJson(f, (v as Record<string, unknown>)[k], nested);
        if (converted !== undefined) m[k] = converted;
      }
      out[f.json] = m;
    } else if (f.repeated) {
      const list = v as unknown[];
      if (list.length === 0) continue;
      out[f.json] = list.map((x) => valueToJson(f, x, nested) ?? null);
    } else {
      if (!f.message && !f.required && isZeroScalar(v)) continue;
      const converted = valueToJson(f, v, nested);
      if (converted !== undefined) out[f.json] = converted;
    }
  }
}

/** The JSON value of a decoded message; undefined for values JSON leaves out (a zero time). */
export function fromMessage(type: Protobuf.Type, msg: Message, nested: NestedDecoder): unknown {
  // A map entry or list item whose message is missing on the wire decodes as null: Go decodes it as the zero value.
  if (msg === null || msg === undefined) return undefined;
  const plan = messagePlan(type);
  if (plan.special) return specialToJson(plan, msg, nested);
  const out: Json = {};
  fillJson(plan, msg, out, nested);
  return out;
}
