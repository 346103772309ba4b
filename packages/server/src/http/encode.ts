/**
 * Encoding of response bodies: JSON (with a trailing newline, like Go's json.Encoder; two-space indent for
 * `pretty`), YAML (as sigs.k8s.io/yaml prints JSON documents) and protobuf, after the conversion (Table,
 * PartialObjectMetadata) the Accept header asks for; watch events likewise.
 */
import { stringify as yamlStringify } from 'yaml';
import { fail, type KubeObject, type Names, notAcceptable, ok, type Result, type Status } from '@svc-apiserver/api';
import { negotiateResponse, producibleMediaTypes, type Negotiated, type NegotiationOptions, type ResponseMediaType } from './negotiation.js';
import { protobufCodec } from '@svc-apiserver/protobuf/codec';
import { transformObject, watchTransformer } from './table/transform.js';
import type { TablePrinter } from './table/printer.js';
import { stringifyYielding } from '../limits/json-slices.js';

const bigintMarker = '\u0000bigint:';

/**
 * JSON text of a value. Integers beyond 2^53 decoded from YAML stay `bigint` to keep them exact; they are written
 * as plain JSON numbers.
 */
export function encodeJson(value: unknown, indent?: number): string {
  // Almost no value holds a bigint: stringify without a replacer first (a replacer function takes V8 off its fast
  // serializer and costs every response), and only when that throws on a bigint go through the marker replacer.
  try {
    return JSON.stringify(value, undefined, indent);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  let sawBigint = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') {
        sawBigint = true;
        return `${bigintMarker}${v.toString()}`;
      }
      return v;
    },
    indent,
  );
  if (!sawBigint) return text;
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** The body of a response in a media type. */
export function encodeBody(value: unknown, mediaType: ResponseMediaType, pretty: boolean): string {
  if (mediaType === 'application/yaml') {
    // Round-trip through JSON first so the YAML holds exactly what the JSON form would (no undefined, toJSON applied).
    // YAML 1.1 quoting, as go-yaml v2 writes: strings a 1.1 reader would take for something else (`"yes"`,
    // `"0644"`, timestamps) are quoted, so kube's YAML 1.1 reading gets them back as strings.
    return yamlStringify(JSON.parse(encodeJson(value)) as unknown, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false, indentSeq: false });
  }
  return encodeJson(value, pretty ? 2 : undefined) + '\n';
}

/** An encoded response body and its Content-Type. */
export interface EncodedResponse {
  readonly contentType: string;
  readonly body: string | Uint8Array;
}

/** Encodes the events of one watch response. */
export interface WatchEncoder {
  /** `application/json`, or `<type>;stream=watch` for the others (as kube-apiserver labels watch streams). */
  readonly contentType: string;
  /** Plain JSON events, unconverted: JSON lines can be written as they are. */
  readonly passthrough: boolean;
  /** One event as written on the stream; undefined when the event cannot be written in this encoding. */
  encode(event: { readonly type: string; readonly object: unknown }): string | Uint8Array | undefined;
}

/** What an endpoint serves: resource endpoints convert (Table, PartialObjectMetadata) and may write protobuf. */
export interface EndpointKind {
  readonly resource: boolean;
  /** `apiVersion` of the resource (for a watch, whose objects are not known when its headers go out). */
  readonly apiVersion?: string;
  /** The resource's own Table printer (custom resources). */
  readonly printer?: TablePrinter;
}

/** Negotiates, converts and encodes response objects and watch events in one flavour. */
export interface ResponseEncoding {
  encodeObject(accept: string | undefined, query: URLSearchParams, object: unknown, endpoint: EndpointKind): Result<EncodedResponse>;
  /**
   * The same as `encodeObject`, a large object's JSON written in slices that give the event loop back between them
   * (limits/json-slices.ts), the same bytes.
   */
  encodeObjectYielding(accept: string | undefined, query: URLSearchParams, object: unknown, endpoint: EndpointKind): Promise<Result<EncodedResponse>>;
  watchEncoder(accept: string | undefined, query: URLSearchParams, endpoint: EndpointKind): Result<WatchEncoder>;
  /** Decodes a protobuf request body to the plain object the handlers use. */
  decodeProtobuf(body: Uint8Array): Result<KubeObject>;
  /** The negotiation settings of an endpoint whose objects are not known yet (streamed lists). */
  negotiationOptions(endpoint: EndpointKind): NegotiationOptions;
  /** The flavour's protobuf media type. */
  readonly protobufMediaType: string;
}

const encodings = new WeakMap<Names, ResponseEncoding>();

/** The response encoding of a flavour (one per `Names`). */
export function responseEncoding(names: Names): ResponseEncoding {
  const cached = encodings.get(names);
  if (cached) return cached;
  const protobufMediaType = names.name('protobufMediaType');
  const codec = protobufCodec(names);
  const metaGroup = names.group('meta');
  // Two literal shapes rather than a spread of a conditional object: this runs for every response.
  const options = (endpoint: EndpointKind, canProtobuf: () => boolean, stream = false): NegotiationOptions => (endpoint.resource
    ? { metaGroup, protobufMediaType, canProtobuf, stream }
    : { protobufMediaType, canProtobuf, stream });
  const notAcceptableFor = (opts: NegotiationOptions): Result<never> =>
    (fail(notAcceptable(producibleMediaTypes(opts))));
  /** A built-in group version has protobuf messages for all its kinds. */
  const groupVersionHasProtobuf = (endpoint: EndpointKind) => (): boolean =>
    endpoint.apiVersion !== undefined && codec.supportsGroupVersion(endpoint.apiVersion);
  /** Negotiates the response's media type and makes the conversion it asks for (Table, PartialObjectMetadata). */
  const prepare = (
    accept: string | undefined, query: URLSearchParams, object: unknown, endpoint: EndpointKind,
  ): Result<{ readonly n: Negotiated; readonly value: unknown }> => {
    const opts = options(endpoint, () => codec.supports(object));
    const n = negotiateResponse(accept, query, opts);
    if (n === undefined) return notAcceptableFor(opts);
    if (!n.conversion) return ok({ n, value: object });
    const t = transformObject(object, n.conversion, {
      names, includeObject: query.get('includeObject'), mediaTypes: producibleMediaTypes(opts), ...(endpoint.printer ? { printer: endpoint.printer } : {}),
    });
    return t.ok ? ok({ n, value: t.value }) : t;
  };
  /** The body of a prepared response. */
  const encodePrepared = (n: Negotiated, value: unknown): Result<EncodedResponse> => {
    if (n.binary) {
      const bytes = codec.encode(value);
      if (bytes === undefined) return notAcceptableFor({ stream: false });
      return ok({ contentType: n.mediaType, body: bytes });
    }
    return ok({ contentType: n.mediaType, body: encodeBody(value, n.mediaType, n.pretty) });
  };
  const encoding: ResponseEncoding = {
    protobufMediaType,
    negotiationOptions: (endpoint) => options(endpoint, groupVersionHasProtobuf(endpoint)),
    encodeObject(accept, query, object, endpoint) {
      const prepared = prepare(accept, query, object, endpoint);
      return prepared.ok ? encodePrepared(prepared.value.n, prepared.value.value) : prepared;
    },
    async encodeObjectYielding(accept, query, object, endpoint) {
      const prepared = prepare(accept, query, object, endpoint);
      if (!prepared.ok) return prepared;
      const { n, value } = prepared.value;
      if (n.binary || n.pretty || n.mediaType !== 'application/json') return encodePrepared(n, value);
      let text: string | undefined;
      try {
        text = await stringifyYielding(value);
      } catch (e) {
        // A bigint (an exact integer from YAML) is written by encodeJson's slower path.
        if (!(e instanceof TypeError)) throw e;
        text = encodeJson(value);
      }
      return ok({ contentType: n.mediaType, body: `${text}\n` });
    },
    watchEncoder(accept, query, endpoint) {
      const opts = options(endpoint, groupVersionHasProtobuf(endpoint), true);
      const n = negotiateResponse(accept, query, opts);
      if (n === undefined) return notAcceptableFor(opts);
      const transform = n.conversion
        ? watchTransformer(n.conversion, { names, includeObject: query.get('includeObject'), ...(endpoint.printer ? { printer: endpoint.printer } : {}) })
        : undefined;
      const convert = (object: unknown): unknown => {
        if (!transform) return object;
        const t = transform(object);
        return t.ok ? t.value : t.error;
      };
      if (n.binary) {
        return {
          ok: true,
          value: {
            contentType: `${n.mediaType};stream=watch`,
            passthrough: false,
            encode: (event) => codec.encodeWatchFrame({ type: event.type, object: convert(event.object) }),
          },
        };
      }
      return {
        ok: true,
        value: {
          contentType: n.mediaType,
          passthrough: transform === undefined,
          encode: (event) => encodeJson({ type: event.type, object: convert(event.object) }) + '\n',
        },
      };
    },
    decodeProtobuf(body) {
      return codec.decode(body);
    },
  };
  encodings.set(names, encoding);
  return encoding;
}
