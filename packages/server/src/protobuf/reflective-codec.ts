/**
 * The binary encoding (`application/vnd.svc.protobuf`, k8s flavour `application/vnd.kubernetes.protobuf`), as
 * apimachinery's protobuf serializer writes it: the 4-byte prefix `k8s\0`, then a `runtime.Unknown` envelope whose
 * `typeMeta` names the kind and whose `raw` holds the object's message (document 1 §Binary envelope). Watch streams
 * are frames of a 4-byte big-endian length followed by a `meta.v1.WatchEvent` message written without prefix or
 * envelope (the raw serializer client-go's watch decoder expects), its `object.raw` holding the enveloped object.
 */
import type * as Protobuf from 'protobufjs';
import {
  badRequest, fail, ok, type KubeObject, type Names, type Result, type Status, type WatchEvent,
} from '@svc-apiserver/api';
import { fromMessage, toMessage } from './convert.js';
import { hasMessages } from './message-names.js';
import { messageTypeFor, metaType } from './message-types.js';
import { kubeProtoRoot } from './proto-root.js';

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
}

function unknownType(): Protobuf.Type {
  return kubeProtoRoot().lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
}

/** Wraps a message in the envelope, with the prefix. Empty encoding fields are written, as Go does. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const body = unknownType().encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }).finish();
  const out = new Uint8Array(protobufPrefix.length + body.length);
  out.set(protobufPrefix, 0);
  out.set(body, protobufPrefix.length);
  return out;
}

const prefixMessage = `provided data does not appear to be a protobuf message, expected prefix [${[...protobufPrefix].join(' ')}]`;

/** Reads the envelope after checking the prefix; 400 for data without it or a malformed envelope. */
export function decodeEnvelope(bytes: Uint8Array): Result<Envelope> {
  if (bytes.length === 0) return fail(badRequest('empty data'));
  if (bytes.length < protobufPrefix.length || protobufPrefix.some((b, i) => bytes[i] !== b)) {
    return fail(badRequest(prefixMessage));
  }
  try {
    const msg = unknownType().decode(bytes.subarray(protobufPrefix.length)) as unknown as Record<string, unknown>;
    const typeMeta = (msg['typeMeta'] ?? {}) as Record<string, string | undefined>;
    return ok({
        apiVersion: typeMeta['apiVersion'] ?? '',
        kind: typeMeta['kind'] ?? '',
        raw: (msg['raw'] as Uint8Array | undefined) ?? new Uint8Array(0),
        contentEncoding: (msg['contentEncoding'] as string | undefined) ?? '',
        contentType: (msg['contentType'] as string | undefined) ?? '',
      });
  } catch (e) {
    return fail(badRequest(`unable to decode the protobuf envelope: ${(e as Error).message}`));
  }
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

/** Builds the codec of a flavour. protobufjs and the .proto files load on the first call that needs them. */
export function reflectiveProtobufCodec(names: Names): ProtobufCodec {
  const typeOf = (object: unknown): Protobuf.Type | undefined => {
    const tm = typeMetaOf(object);
    return tm ? messageTypeFor(names, tm.apiVersion, tm.kind) : undefined;
  };
  const decode = (bytes: Uint8Array): Result<KubeObject> => {
    const env = decodeEnvelope(bytes);
    if (!env.ok) return env;
    const { apiVersion, kind, raw, contentEncoding } = env.value;
    if (contentEncoding !== '') return fail(badRequest(`unsupported content encoding ${JSON.stringify(contentEncoding)} in the protobuf envelope`));
    if (kind === '') return fail(badRequest('Object \'Kind\' is missing in the protobuf envelope'));
    const type = messageTypeFor(names, apiVersion, kind);
    if (!type) return fail(badRequest(`no kind "${kind}" is registered for version "${apiVersion}"`));
    let msg: Record<string, unknown>;
    try {
      msg = type.decode(raw) as unknown as Record<string, unknown>;
    } catch (e) {
      return fail(badRequest(`unable to decode ${kind}: ${(e as Error).message}`));
    }
    const nested = (inner: Uint8Array): unknown => {
      const d = decode(inner);
      return d.ok ? d.value : undefined;
    };
    const body = fromMessage(type, msg, nested) as Record<string, unknown>;
    return ok({ apiVersion, kind, ...body } as KubeObject);
  };
  const encode = (object: unknown): Uint8Array | undefined => {
    const tm = typeMetaOf(object);
    const type = tm ? messageTypeFor(names, tm.apiVersion, tm.kind) : undefined;
    if (!tm || !type) return undefined;
    const message = toMessage(type, object) ?? {};
    return encodeEnvelope(tm.apiVersion, tm.kind, type.encode(message).finish());
  };
  return {
    supports: (object) => typeOf(object) !== undefined,
    supportsGroupVersion: (apiVersion) => hasMessages(names, apiVersion),
    encode,
    decode,
    encodeWatchFrame(event) {
      const raw = encode(event.object);
      if (raw === undefined) return undefined;
      return frame(metaType('WatchEvent').encode({ type: event.type, object: { raw } }).finish());
    },
  };
}
