/**
 * One stored object version as the watch cache keeps it (kube's cacher keeps decoded objects and caches their
 * serialization per watch event, `cachingObject`). Decoding and serializing happen at most once per object version
 * however many lists and watchers read it: lists write `itemJson()` as is, watch events are framed around it.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { KeyValue } from '../backend.js';

/** An object version with memoized forms. Nothing handed out here may be mutated: copies are the caller's. */
export interface StoredObject {
  readonly key: string;
  /** The revision the object is shown at (its mod revision; for a deletion, the delete's revision). */
  readonly revision: number;
  readonly createRevision: number;
  /** The object decoded afresh (the caller's own), with kind, apiVersion and metadata.resourceVersion. */
  parsed(): KubeObject;
  /** The same as `parsed`: a private copy for in-process callers that may change it. */
  copy(): KubeObject;
  /**
   * What `parsed` decodes and what it then sets on the decoded value: for callers that decode a large object in
   * slices of the event loop's turns instead (the registry does).
   */
  decodable(): DecodableObject;
  /** The object's JSON as a list item: without kind and apiVersion, as kube-apiserver writes typed list items. */
  itemJson(): string;
  /** The same as `itemJson`, UTF-8 encoded once: streamed lists copy these bytes into their writes as they are. */
  itemBytes(): Uint8Array;
  /**
   * The item's bytes behind `head` (`{"kind":..,"apiVersion":..,`: a custom resource list's items carry the list's
   * kind and apiVersion, as kube's UnstructuredList writes them), made once per object version and kept for the
   * same head: every later list writes them whole, as typed lists write their items.
   */
  itemBytesBehind(head: Buffer): Buffer;
  /** The object's JSON with kind and apiVersion first (get and watch). */
  objectJson(): string;
  /**
   * The same as `objectJson`, UTF-8 encoded between `before` and `after` in one new buffer, copied from the item's
   * bytes (no string is built or encoded): a get's body, a watch event's frame.
   */
  objectBytes(before?: Uint8Array, after?: Uint8Array): Buffer;
  /** The same object shown at another revision (a deletion shows the last state at the delete's revision). */
  at(revision: number): StoredObject;
  /** The length of the object's stored JSON text: what decoding it costs. */
  readonly size: number;
  /** A slot for the layer above (selectable attributes), computed once. */
  memo?: unknown;
}

/** An object's JSON text and the finishing touch of its decoding (kind, apiVersion, resourceVersion). */
export interface DecodableObject {
  readonly text: string;
  /** Completes `JSON.parse(text)` (changed in place) into the object `parsed()` answers. */
  finish(decoded: KubeObject): KubeObject;
}

/** Turns stored key-values into {@link StoredObject}s of one kind. */
export interface ObjectCodec {
  readonly kind: string;
  readonly apiVersion: string;
  /** The object of `kv`, shown at `revision` (default its mod revision). */
  decode(kv: KeyValue, revision?: number): StoredObject;
}

/** The head of every object of a codec, `{"kind":"..","apiVersion":".."`, as text and as bytes. */
interface TypePrefix {
  readonly text: string;
  readonly bytes: Buffer;
}

const comma = 0x2c;

/**
 * One decoded object version. A class, not closures: a cache of 100k objects then holds one small heap object and
 * one byte buffer per object instead of a handful of closures each, which keeps major garbage collections short
 * (they showed as the tail of list latency). The item's bytes live outside the heap and are written as they are.
 */
class CodecObject implements StoredObject {
  /** The stored value until the item is made (then dropped: the item is the only form kept). */
  private raw: string | undefined;
  private item: Buffer | undefined;
  /** The item behind a list's type head, with that head ({@link itemBytesBehind}); a field, not a map: lists of thousands look it up per item. */
  private headed: { readonly head: Buffer; readonly bytes: Buffer } | undefined;
  memo?: unknown;

  constructor(
    private readonly codec: ObjectCodec,
    private readonly typePrefix: TypePrefix,
    readonly key: string,
    value: string,
    readonly revision: number,
    readonly createRevision: number,
  ) {
    this.raw = value;
  }

  get size(): number {
    return this.raw?.length ?? this.item?.length ?? 0;
  }

  /** Stamps a decoded stored value with the codec's kind and apiVersion and this version's resourceVersion. */
  private finish(o: KubeObject): KubeObject {
    o.apiVersion = this.codec.apiVersion;
    o.kind = this.codec.kind;
    o.metadata = { ...(o.metadata ?? {}), resourceVersion: String(this.revision) };
    return o;
  }

  itemBytes(): Buffer {
    if (this.item === undefined) {
      // One parse, changed in place (no copies of the object or its metadata): this runs once per object version,
      // and for a cold list of 100k objects it is most of the list's time.
      const o = JSON.parse(this.raw ?? '{}') as Record<string, unknown>;
      delete o['kind'];
      delete o['apiVersion'];
      const metadata = o['metadata'];
      if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) (metadata as Record<string, unknown>)['resourceVersion'] = String(this.revision);
      else o['metadata'] = { resourceVersion: String(this.revision) };
      this.item = Buffer.from(JSON.stringify(o));
      this.raw = undefined;
    }
    return this.item;
  }

  itemJson(): string {
    return this.itemBytes().toString('utf8');
  }

  itemBytesBehind(head: Buffer): Buffer {
    const known = this.headed;
    if (known !== undefined && (known.head === head || known.head.equals(head))) return known.bytes;
    const item = this.itemBytes();
    // The item is never `{}` (it holds metadata with the resourceVersion): its `{` gives way to the head.
    const bytes = Buffer.concat([head, item.subarray(1)], head.length + item.length - 1);
    this.headed = { head, bytes };
    return bytes;
  }

  objectJson(): string {
    return `${this.typePrefix.text},${this.itemJson().slice(1)}`;
  }

  objectBytes(before?: Uint8Array, after?: Uint8Array): Buffer {
    // `{...item}` becomes `{"kind":..,"apiVersion":..` then `,` and the item without its `{`: the item is never `{}`
    // (it always holds metadata with the resourceVersion).
    const item = this.itemBytes();
    const head = this.typePrefix.bytes;
    const out = Buffer.allocUnsafe((before?.length ?? 0) + head.length + item.length + (after?.length ?? 0));
    let at = 0;
    if (before !== undefined) {
      out.set(before, at);
      at += before.length;
    }
    out.set(head, at);
    at += head.length;
    out[at++] = comma;
    out.set(item.subarray(1), at);
    at += item.length - 1;
    if (after !== undefined) out.set(after, at);
    return out;
  }

  decodable(): DecodableObject {
    // The item's JSON already holds what finishing sets, in the same places: setting it again changes nothing.
    const text = this.raw ?? this.objectJson();
    return { text, finish: (o) => this.finish(o) };
  }

  parsed(): KubeObject {
    const { text, finish } = this.decodable();
    return finish(JSON.parse(text) as KubeObject);
  }

  copy(): KubeObject {
    return this.parsed();
  }

  at(other: number): StoredObject {
    if (other === this.revision) return this;
    return this.codec.decode({ key: this.key, value: this.raw ?? this.objectJson(), createRevision: this.createRevision, modRevision: other }, other);
  }
}

/** A codec writing `kind` and `apiVersion` on every object (stored values carry them too; these win). */
export function objectCodec(apiVersion: string, kind: string): ObjectCodec {
  const text = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
  const typePrefix: TypePrefix = { text, bytes: Buffer.from(text) };
  const codec: ObjectCodec = {
    kind,
    apiVersion,
    decode: (kv, revision = kv.modRevision) => new CodecObject(codec, typePrefix, kv.key, kv.value, revision, kv.createRevision),
  };
  return codec;
}

/** The apiVersion a stored value was written with (written first, as the store encodes objects), or undefined. */
function storedApiVersion(value: string): string | undefined {
  const m = /^\{"apiVersion":"([^"\\]*)"/.exec(value);
  return m?.[1];
}

/**
 * A codec for a collection whose objects may be stored in several versions (custom resources: each object stays
 * in the version that was the storage version when it was written): each object is shown with the apiVersion it
 * was stored with, `apiVersion` being the one assumed when a value does not say.
 */
export function storedTypeCodec(apiVersion: string, kind: string): ObjectCodec {
  const byVersion = new Map<string, ObjectCodec>([[apiVersion, objectCodec(apiVersion, kind)]]);
  return {
    kind,
    apiVersion,
    decode(kv, revision = kv.modRevision) {
      const stored = storedApiVersion(kv.value) ?? apiVersion;
      let codec = byVersion.get(stored);
      if (codec === undefined) byVersion.set(stored, (codec = objectCodec(stored, kind)));
      return codec.decode(kv, revision);
    },
  };
}
