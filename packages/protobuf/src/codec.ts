/**
 * The binary encoding (`application/vnd.svc.protobuf`, k8s flavour `application/vnd.kubernetes.protobuf`), as
 * apimachinery's protobuf serializer writes it: the 4-byte prefix `k8s\0`, then a `runtime.Unknown` envelope whose
 * `typeMeta` names the kind and whose `raw` holds the object's message (document 1 §Binary envelope). Watch streams
 * are frames of a 4-byte big-endian length followed by a `meta.v1.WatchEvent` message written without prefix or
 * envelope (the raw serializer client-go's watch decoder expects), its `object.raw` holding the enveloped object.
 *
 * Objects are written and read by the generated encoders and decoders of their message types (generated-messages.ts);
 * the envelope, the watch frame and the list head around items encoded beforehand are written here.
 */
import {
  badRequest, fail, ok, type KubeObject, type Names, type Result, type WatchEvent,
} from '@svc-apiserver/api';
import { hasMessages, kindCodec } from './message-names.js';
import { DecodeError, WireReader } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';

/** The prefix of every enveloped message: `k8s` and a zero byte. */
export const protobufPrefix: Uint8Array = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

/** The `runtime.Unknown` envelope. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** Encoder and decoder of the binary encoding in one flavour. */
export interface ProtobufCodec {
  /** True when the object's kind has a message type (built-in kinds; not custom resources or `version.Info`). */
  supports(object: unknown): boolean;
  /** True when a group version (`apps/v1`, in this flavour) has messages: every built-in one. */
  supportsGroupVersion(apiVersion: string): boolean;
  /** The enveloped bytes of an object; undefined when its kind has no message type. */
  encode(object: unknown): Uint8Array | undefined;
  /** Decodes enveloped bytes into the plain JSON-shaped object (apiVersion/kind from the envelope); 400 otherwise. */
  decode(bytes: Uint8Array): Result<KubeObject>;
  /** One watch stream frame; undefined when the event's object has no message type. */
  encodeWatchFrame(event: WatchEvent | { readonly type: string; readonly object: unknown }): Uint8Array | undefined;
  /**
   * Reads one watch event from a frame's message (the bytes after its 4-byte length): the event type and its object
   * decoded from the envelope in `object.raw`, as client-go's watch decoder reads them; 400 when malformed.
   */
  decodeWatchEvent(message: Uint8Array): Result<WatchEvent>;
  /**
   * The message of one list item of kind `kind` (no envelope: what a list's items field holds), to be kept and
   * written into lists with {@link ProtobufCodec.listHead}; undefined when the kind has no message type.
   */
  encodeItem(apiVersion: string, kind: string, object: unknown): Uint8Array | undefined;
  /**
   * A list written from items encoded beforehand (`encodeItem`), as apimachinery would write the whole list: the
   * bytes before the items, each item's field header, and the bytes after them, so that a list is streamed item by
   * item without being built whole. Undefined when the list kind has no message type.
   */
  listWriter(apiVersion: string, listKind: string, metadata: Readonly<Record<string, unknown>>, items: readonly Uint8Array[]): ListBytes | undefined;
}

/** A list's bytes around its items (see {@link ProtobufCodec.listWriter}). */
export interface ListBytes {
  /** The prefix, the envelope's head and the list's fields before its items. */
  readonly head: Uint8Array;
  /** The field header (tag and length) of item `i`, written before its bytes. */
  itemHeader(i: number): Uint8Array;
  /** The envelope's fields after `raw`. */
  readonly tail: Uint8Array;
}

/** One writer for every encoding in the process: encoders are synchronous and never nest. */
const writer = new WireWriter();

const varintSize = (n: number): number => (n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : n < 268435456 ? 4 : 5);

/** Writes varint `v` (below 2^32) at `p`; returns the position after it. */
function putVarint(out: Buffer, p: number, v: number): number {
  while (v > 127) {
    out[p++] = (v & 127) | 128;
    v >>>= 7;
  }
  out[p++] = v;
  return p;
}

/** The envelope's fields after `raw`: empty contentEncoding and contentType, written as Go writes them. */
const envelopeTail = Uint8Array.from([0x1a, 0x00, 0x22, 0x00]);

/**
 * The prefix and the envelope up to the start of `raw`'s bytes, for a message of `rawLength` bytes, in a buffer
 * with `room` bytes more after it.
 */
function envelopeHead(apiVersion: string, kind: string, rawLength: number, room = 0): Buffer {
  const av = Buffer.byteLength(apiVersion);
  const k = Buffer.byteLength(kind);
  const typeMeta = 1 + varintSize(av) + av + 1 + varintSize(k) + k;
  const head = Buffer.allocUnsafe(protobufPrefix.length + 1 + varintSize(typeMeta) + typeMeta + 1 + varintSize(rawLength) + room);
  head.set(protobufPrefix, 0);
  let p = protobufPrefix.length;
  head[p++] = 0x0a;
  p = putVarint(head, p, typeMeta);
  head[p++] = 0x0a;
  p = putVarint(head, p, av);
  p += head.write(apiVersion, p, 'utf8');
  head[p++] = 0x12;
  p = putVarint(head, p, k);
  p += head.write(kind, p, 'utf8');
  head[p++] = 0x12;
  putVarint(head, p, rawLength);
  return head;
}

/** The enveloped bytes of a message held in `raw[0, length)`. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array, length: number): Uint8Array {
  const head = envelopeHead(apiVersion, kind, length, length + envelopeTail.length);
  head.set(raw.subarray(0, length), head.length - length - envelopeTail.length);
  head.set(envelopeTail, head.length - envelopeTail.length);
  return head;
}

/** Wraps a message in the envelope, with the prefix. Empty encoding fields are written, as Go does. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return envelope(apiVersion, kind, raw, raw.length);
}

const prefixMessage = `provided data does not appear to be a protobuf message, expected prefix [${[...protobufPrefix].join(' ')}]`;

const noNesting = (): undefined => undefined;

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** True for what malformed input makes the decoders throw: their own errors, and ranges (dates, offsets) out of bounds. */
const isDecodeFailure = (e: unknown): e is Error => e instanceof DecodeError || e instanceof RangeError;

/** Reads the envelope after checking the prefix; 400 for data without it or a malformed envelope. */
export function decodeEnvelope(bytes: Uint8Array): Result<Envelope> {
  if (bytes.length === 0) return fail(badRequest('empty data'));
  if (bytes.length < protobufPrefix.length || protobufPrefix.some((b, i) => bytes[i] !== b)) {
    return fail(badRequest(prefixMessage));
  }
  const buf = asBuffer(bytes).subarray(protobufPrefix.length);
  const r = new WireReader(buf, noNesting);
  const end = buf.length;
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = Buffer.alloc(0);
  let contentEncoding = '';
  let contentType = '';
  try {
    while (r.pos < end) {
      const t = r.tag();
      switch (t) {
        case 0x0a: {
          const e = r.sub(end);
          while (r.pos < e) {
            const u = r.tag();
            if (u === 0x0a) apiVersion = r.string(e);
            else if (u === 0x12) kind = r.string(e);
            else r.skip(u, e, [1, 2]);
          }
          r.done(e);
          break;
        }
        case 0x12: raw = r.bytes(end); break;
        case 0x1a: contentEncoding = r.string(end); break;
        case 0x22: contentType = r.string(end); break;
        default: r.skip(t, end, [1, 2, 3, 4]);
      }
    }
    r.done(end);
  } catch (e) {
    if (!isDecodeFailure(e)) throw e;
    return fail(badRequest(`unable to decode the protobuf envelope: ${e.message}`));
  }
  return ok({ apiVersion, kind, raw, contentEncoding, contentType });
}

function typeMetaOf(object: unknown): { apiVersion: string; kind: string } | undefined {
  if (object === null || typeof object !== 'object') return undefined;
  const { apiVersion, kind } = object as { apiVersion?: unknown; kind?: unknown };
  return typeof apiVersion === 'string' && typeof kind === 'string' ? { apiVersion, kind } : undefined;
}

/** Frames one message: 4-byte big-endian length, then the bytes. */
export function frame(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

/** A watch frame: `WatchEvent { type = 1; object = 2 (RawExtension { raw = 1 }) }` around an enveloped object. */
function watchFrame(type: string, raw: Uint8Array): Uint8Array {
  const t = Buffer.byteLength(type);
  const object = 1 + varintSize(raw.length) + raw.length;
  const length = 1 + varintSize(t) + t + 1 + varintSize(object) + object;
  const out = Buffer.allocUnsafe(4 + length);
  out.writeUInt32BE(length, 0);
  let p = 4;
  out[p++] = 0x0a;
  p = putVarint(out, p, t);
  p += out.write(type, p, 'utf8');
  out[p++] = 0x12;
  p = putVarint(out, p, object);
  out[p++] = 0x0a;
  p = putVarint(out, p, raw.length);
  out.set(raw, p);
  return out;
}

/** The fields of a `meta.v1.WatchEvent` message: its type and the bytes of its object's `RawExtension.raw`. */
function readWatchEvent(message: Uint8Array): Result<{ type: string; raw: Uint8Array }> {
  const buf = asBuffer(message);
  const r = new WireReader(buf, noNesting);
  const end = buf.length;
  let type = '';
  let raw: Uint8Array = Buffer.alloc(0);
  try {
    while (r.pos < end) {
      const t = r.tag();
      if (t === 0x0a) type = r.string(end);
      else if (t === 0x12) {
        const e = r.sub(end);
        while (r.pos < e) {
          const u = r.tag();
          if (u === 0x0a) raw = r.bytes(e);
          else r.skip(u, e, [1]);
        }
        r.done(e);
      } else r.skip(t, end, [1, 2]);
    }
    r.done(end);
  } catch (e) {
    if (!isDecodeFailure(e)) throw e;
    return fail(badRequest(`unable to decode the watch event: ${e.message}`));
  }
  if (type === '') return fail(badRequest('the watch event has no type'));
  return ok({ type, raw });
}

const codecs = new WeakMap<Names, ProtobufCodec>();

/** The codec of a flavour (one per `Names`). The generated encoders and decoders load on the first call that needs them. */
export function protobufCodec(names: Names): ProtobufCodec {
  let codec = codecs.get(names);
  if (codec === undefined) codecs.set(names, (codec = makeCodec(names)));
  return codec;
}

function makeCodec(names: Names): ProtobufCodec {
  /** Decodes enveloped bytes, nested `depth` messages deep (an envelope inside a RawExtension continues the count). */
  const decodeAt = (bytes: Uint8Array, depth: number): Result<KubeObject> => {
    const env = decodeEnvelope(bytes);
    if (!env.ok) return env;
    const { apiVersion, kind, raw, contentEncoding } = env.value;
    if (contentEncoding !== '') return fail(badRequest(`unsupported content encoding ${JSON.stringify(contentEncoding)} in the protobuf envelope`));
    if (kind === '') return fail(badRequest('Object \'Kind\' is missing in the protobuf envelope'));
    const codec = kindCodec(names, apiVersion, kind);
    if (!codec) return fail(badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`));
    const buf = asBuffer(raw);
    try {
      const body = codec.decode(new WireReader(buf, nested, depth), buf.length);
      return ok({ apiVersion, kind, ...body } as KubeObject);
    } catch (e) {
      if (!isDecodeFailure(e)) throw e;
      return fail(badRequest(`unable to decode ${kind}: ${e.message}`));
    }
  };
  const nested = (inner: Uint8Array, depth: number): unknown => {
    const d = decodeAt(inner, depth);
    return d.ok ? d.value : undefined;
  };
  /** The message of `object` in the shared writer; undefined when its kind has none. */
  const encodeMessage = (apiVersion: string, kind: string, object: unknown): boolean => {
    const codec = kindCodec(names, apiVersion, kind);
    if (!codec) return false;
    writer.reset();
    codec.encode(writer, object as Record<string, unknown>);
    return true;
  };
  const encode = (object: unknown): Uint8Array | undefined => {
    const tm = typeMetaOf(object);
    if (!tm || !encodeMessage(tm.apiVersion, tm.kind, object)) return undefined;
    return envelope(tm.apiVersion, tm.kind, writer.buf, writer.pos);
  };
  return {
    supports: (object) => {
      const tm = typeMetaOf(object);
      return tm !== undefined && kindCodec(names, tm.apiVersion, tm.kind) !== undefined;
    },
    supportsGroupVersion: (apiVersion) => hasMessages(names, apiVersion),
    encode,
    decode: (bytes) => decodeAt(bytes, 0),
    encodeWatchFrame(event) {
      const raw = encode(event.object);
      return raw === undefined ? undefined : watchFrame(event.type, raw);
    },
    decodeWatchEvent(message) {
      const event = readWatchEvent(message);
      if (!event.ok) return event;
      const object = decodeAt(event.value.raw, 1);
      return object.ok ? ok({ type: event.value.type, object: object.value } as WatchEvent) : object;
    },
    encodeItem(apiVersion, kind, object) {
      if (!encodeMessage(apiVersion, kind, object)) return undefined;
      return Buffer.from(writer.buf.subarray(0, writer.pos));
    },
    listWriter(apiVersion, listKind, metadata, items) {
      const codec = kindCodec(names, apiVersion, listKind);
      if (!codec || codec.itemsField === undefined) return undefined;
      writer.reset();
      codec.encode(writer, { metadata });
      const fields = Buffer.from(writer.buf.subarray(0, writer.pos));
      const tag = (codec.itemsField << 3) | 2;
      let rawLength = fields.length;
      for (const item of items) rawLength += varintSize(tag) + varintSize(item.length) + item.length;
      const head = envelopeHead(apiVersion, listKind, rawLength);
      return {
        head: Buffer.concat([head, fields]),
        itemHeader(i) {
          const n = items[i]!.length;
          const out = Buffer.allocUnsafe(varintSize(tag) + varintSize(n));
          putVarint(out, putVarint(out, 0, tag), n);
          return out;
        },
        tail: envelopeTail,
      };
    },
  };
}
