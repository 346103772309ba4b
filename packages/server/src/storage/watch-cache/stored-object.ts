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
  /** The object's JSON as a list item: without kind and apiVersion, as kube-apiserver writes typed list items. */
  itemJson(): string;
  /** The object's JSON with kind and apiVersion first (get and watch). */
  objectJson(): string;
  /** The same object shown at another revision (a deletion shows the last state at the delete's revision). */
  at(revision: number): StoredObject;
  /** A slot for the layer above (selectable attributes), computed once. */
  memo?: unknown;
}

/** Turns stored key-values into {@link StoredObject}s of one kind. */
export interface ObjectCodec {
  readonly kind: string;
  readonly apiVersion: string;
  /** The object of `kv`, shown at `revision` (default its mod revision). */
  decode(kv: KeyValue, revision?: number): StoredObject;
}

/** A codec writing `kind` and `apiVersion` on every object (stored values carry them too; these win). */
export function objectCodec(apiVersion: string, kind: string): ObjectCodec {
  const typePrefix = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}`;
  const codec: ObjectCodec = {
    kind,
    apiVersion,
    decode(kv, revision = kv.modRevision) {
      // Only the serialized item is kept once made: one string per object instead of a graph of objects keeps the
      // heap small and garbage collection short with many cached objects.
      let raw: string | undefined = kv.value;
      let item: string | undefined;
      const decodeRaw = (): KubeObject => {
        const o = JSON.parse(raw ?? '{}') as KubeObject;
        o.apiVersion = apiVersion;
        o.kind = kind;
        o.metadata = { ...(o.metadata ?? {}), resourceVersion: String(revision) };
        return o;
      };
      const itemJson = (): string => {
        if (item === undefined) {
          const { kind: _k, apiVersion: _a, ...rest } = decodeRaw();
          item = JSON.stringify(rest);
          raw = undefined;
        }
        return item;
      };
      const objectJson = (): string => {
        const it = itemJson();
        return it === '{}' ? `${typePrefix}}` : `${typePrefix},${it.slice(1)}`;
      };
      const parse = (): KubeObject => (item === undefined ? decodeRaw() : (JSON.parse(objectJson()) as KubeObject));
      const stored: StoredObject = {
        key: kv.key,
        revision,
        createRevision: kv.createRevision,
        parsed: parse,
        copy: parse,
        itemJson,
        objectJson,
        at(other) {
          if (other === revision) return stored;
          return codec.decode({ key: kv.key, value: raw ?? objectJson(), createRevision: kv.createRevision, modRevision: other }, other);
        },
      };
      return stored;
    },
  };
  return codec;
}
