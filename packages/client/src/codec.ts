/**
 * Bodies in the media types the client speaks: JSON (the default), YAML (`application/yaml`), which kube-apiserver
 * accepts and serves for every resource, and the binary protobuf encoding of built-in kinds
 * (`application/vnd.svc.protobuf`, `application/vnd.kubernetes.protobuf` in the k8s flavour). YAML is read as
 * kube-apiserver reads it (YAML 1.1 scalars, large integers exact) and written plainly. With protobuf the client
 * does what client-go does: it sends built-in objects in protobuf and anything else (custom resources, patches,
 * delete options) in JSON, and accepts protobuf with JSON as the fallback, which the server picks for objects that
 * have no message type.
 */
import { parse, stringify } from 'yaml';
import { fail, flavours, namesFor, ok, type Flavour, type Result } from '@svc-apiserver/api';
import { protobufCodec } from '@svc-apiserver/protobuf';

/** A body encoding. */
export type Encoding = 'json' | 'yaml' | 'protobuf';

/** The protobuf media type of each flavour. */
const protobufMediaTypes = new Map(flavours.map((f) => [namesFor(f).name('protobufMediaType'), f] as const));

/** The media type of an encoding's bodies; protobuf's is the flavour's vendor type. */
export function mediaTypeOf(encoding: Encoding, flavour: Flavour): string {
  if (encoding === 'protobuf') return namesFor(flavour).name('protobufMediaType');
  return encoding === 'yaml' ? 'application/yaml' : 'application/json';
}

/** The `Accept` header of an encoding: protobuf falls back to JSON for objects without a message type. */
export function acceptOf(encoding: Encoding, flavour: Flavour): string {
  return encoding === 'protobuf' ? `${mediaTypeOf(encoding, flavour)}, application/json` : mediaTypeOf(encoding, flavour);
}

/** A body ready to send, with its media type. */
export interface EncodedBody {
  readonly body: string | Buffer;
  readonly contentType: string;
}

/** Writes a value in an encoding; in protobuf, a value of a kind without a message type goes as JSON. */
export function encodeBody(value: unknown, encoding: Encoding, flavour: Flavour): EncodedBody {
  if (encoding === 'protobuf') {
    const bytes = protobufCodec(namesFor(flavour)).encode(value);
    if (bytes !== undefined) return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType: mediaTypeOf(encoding, flavour) };
    return { body: JSON.stringify(value), contentType: 'application/json' };
  }
  // YAML 1.1 quoting, so `yes`, `on` or `0644` stay strings for a server that reads YAML 1.1
  if (encoding === 'yaml') return { body: stringify(value, { version: '1.1' }), contentType: 'application/yaml' };
  return { body: JSON.stringify(value), contentType: 'application/json' };
}

/** The media type of a `content-type` header, lower case, without parameters. */
export function mediaTypeOfHeader(contentType: string | undefined): string {
  return (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The flavour whose protobuf media type this is; undefined for any other media type. */
export function protobufFlavourOf(mediaType: string): Flavour | undefined {
  return protobufMediaTypes.get(mediaType);
}

/** Reads a body by its `content-type` (JSON when absent). */
export function decodeBody(body: Buffer, contentType: string | undefined): Result<unknown, string> {
  const type = mediaTypeOfHeader(contentType);
  const protobuf = protobufFlavourOf(type);
  if (protobuf !== undefined) {
    const decoded = protobufCodec(namesFor(protobuf)).decode(body);
    return decoded.ok ? decoded : fail(`the server returned protobuf that does not decode: ${decoded.error.message}`);
  }
  const text = body.toString('utf8');
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    try {
      return ok(parse(text, { version: '1.1', intAsBigInt: false }));
    } catch (e) {
      return fail(`the server returned YAML that does not parse: ${(e as Error).message}`);
    }
  }
  if (type !== 'application/json' && !type.endsWith('+json') && type !== '') {
    return fail(`the server returned a body of media type ${type}, which this client does not read`);
  }
  try {
    return ok(JSON.parse(text));
  } catch (e) {
    return fail(`the server returned a body that is not JSON: ${(e as Error).message}`);
  }
}
