/**
 * The generated encoders and decoders of the Kubernetes 1.27 message types (generated/protobuf-messages.cjs, written
 * by the server package's scripts/generate-protobuf.mjs from the upstream generated.proto files), loaded
 * on the first request that needs the binary encoding (most clients never ask for it) and handed the wire reader
 * and writer helpers and the JSON conventions they share (json-forms.ts).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { durationJson, jsonText, microTimeJson, parseDuration, parseTime, setEntry, timeJson, toBytes, toNumber } from './json-forms.js';
import type { WireReader } from './wire-reader.js';
import type { WireWriter } from './wire-writer.js';

/** Writes the fields of a JSON-shaped object as its message; returns how many of them were present. */
export type MessageEncoder = (w: WireWriter, object: Record<string, unknown>) => number;
/** Reads the message that ends at `end` into its JSON-shaped object. */
export type MessageDecoder = (r: WireReader, end: number) => Record<string, unknown>;

/** The encoder and decoder of one message type, and for a list type the field number of its items. */
export interface MessageCodec {
  readonly encode: MessageEncoder;
  readonly decode: MessageDecoder;
  readonly itemsField?: number;
}

/** The generated module: a function of the helpers answering `[encoder, decoder, items field?]` by full name. */
type GeneratedModule = (helpers: Record<string, unknown>) => Record<string, [MessageEncoder, MessageDecoder, number?]>;

/** Relative to this module, so it works from src/ and dist/. */
const generatedFile = new URL('../generated/protobuf-messages.cjs', import.meta.url);

let codecs: ReadonlyMap<string, MessageCodec> | undefined;
let packages: ReadonlySet<string> | undefined;

function load(): ReadonlyMap<string, MessageCodec> {
  if (codecs) return codecs;
  const make = createRequire(import.meta.url)(fileURLToPath(generatedFile)) as GeneratedModule;
  const table = make({ toNumber, toBytes, jsonText, parseTime, timeJson, microTimeJson, parseDuration, durationJson, setEntry });
  const map = new Map<string, MessageCodec>();
  for (const [name, [encode, decode, itemsField]] of Object.entries(table)) {
    map.set(name, itemsField === undefined ? { encode, decode } : { encode, decode, itemsField });
  }
  codecs = map;
  packages = new Set([...map.keys()].map((name) => name.slice(0, name.lastIndexOf('.'))));
  return map;
}

/** The codec of a message type by full name (`k8s.io.api.core.v1.Pod`); undefined when there is none. */
export function messageCodec(fullName: string): MessageCodec | undefined {
  return load().get(fullName);
}

/** True when a proto package (`k8s.io.api.apps.v1`) has message types. */
export function hasPackage(pkg: string): boolean {
  load();
  return packages!.has(pkg);
}
