/**
 * The upstream message types themselves, loaded with protobufjs from the .proto files (proto-root.ts): the
 * reference the generated codec's wire form is checked against in tests. The server encodes and decodes with
 * the generated code (message-names.ts, generated-messages.ts).
 */
import type * as Protobuf from 'protobufjs';
import type { Names } from '@svc-apiserver/api';
import { messageNameFor, metaV1Package } from '@svc-apiserver/protobuf/message-names';
import { kubeProtoRoot } from './proto-root.js';

/** The protobufjs type of a kind served under `apiVersion` (in the server's flavour); undefined when it has none. */
export function messageTypeFor(names: Names, apiVersion: string, kind: string): Protobuf.Type | undefined {
  const name = messageNameFor(names, apiVersion, kind);
  return name === undefined ? undefined : kubeProtoRoot().lookupType(name);
}

/** A meta.v1 type by name (`WatchEvent`, `Status`). */
export function metaType(kind: string): Protobuf.Type {
  return kubeProtoRoot().lookupType(`${metaV1Package}.${kind}`);
}
