/**
 * Response negotiation: which media type a response is written in (k8s.io/apiserver's negotiation package).
 * JSON is the default; YAML and the binary protobuf type (in this flavour's name) when asked; `?pretty=true`
 * indents. Accept entries with `as=Table` / `as=PartialObjectMetadata` / `as=PartialObjectMetadataList` and
 * `g=<meta group>;v=v1|v1beta1` ask for a conversion: Tables are JSON or YAML only, metadata also protobuf (as
 * kube-apiserver's AllowsConversion). Entries are tried best first; the first one the server can write wins.
 */
import { parseAccept, rangeMatches, type MediaType } from './media-type.js';
import type { Conversion } from './table/transform.js';

/** Text media types the server writes objects in. */
export const responseMediaTypes = ['application/json', 'application/yaml'] as const;

/** A negotiated response media type: JSON, YAML or the flavour's protobuf type. */
export type ResponseMediaType = (typeof responseMediaTypes)[number] | (string & {});

/** What a response is written as. */
export interface Negotiated {
  readonly mediaType: ResponseMediaType;
  readonly pretty: boolean;
  /** True for the binary protobuf type. */
  readonly binary?: boolean;
  /** A conversion of the object asked for in Accept. */
  readonly conversion?: Conversion;
}

/** What the endpoint can produce besides JSON and YAML. */
export interface NegotiationOptions {
  /** The flavour's protobuf media type; unset when the endpoint has no protobuf form. */
  readonly protobufMediaType?: string;
  /** Whether the object(s) of this response have a protobuf form (asked only when an entry would pick protobuf). */
  readonly canProtobuf?: () => boolean;
  /** The meta group conversions are asked in (`meta.svc.io`); unset when the endpoint does no conversions. */
  readonly metaGroup?: string;
  /** A watch: no YAML (kube-apiserver has no YAML stream serializer). */
  readonly stream?: boolean;
}

const conversionKinds = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

/** True for `as=Table` style conversions the plain negotiation falls back from to the plain object. */
function isFallbackConversion(m: MediaType): boolean {
  return conversionKinds.has(m.params['as'] ?? '');
}

/** The text and binary media types an endpoint can write, for 406 messages. */
export function producibleMediaTypes(options: NegotiationOptions = {}): string[] {
  const out: string[] = options.stream ? ['application/json'] : [...responseMediaTypes];
  if (options.protobufMediaType) out.push(options.protobufMediaType);
  return out;
}

/**
 * Chooses the response media type; undefined when nothing in Accept can be produced (406). Without options (non-
 * resource endpoints) conversion entries fall back to plain JSON, which kubectl handles.
 */
export function negotiateResponse(accept: string | undefined, query: URLSearchParams, options?: NegotiationOptions): Negotiated | undefined {
  const pretty = ['true', '1'].includes(query.get('pretty') ?? '');
  const entries = parseAccept(accept);
  if (entries.length === 0) return { mediaType: 'application/json', pretty };
  const text: string[] = options?.stream ? ['application/json'] : [...responseMediaTypes];
  const protobuf = options?.protobufMediaType;
  let protobufOk: boolean | undefined;
  const binaryAllowed = (): boolean => (protobufOk ??= protobuf !== undefined && (options?.canProtobuf?.() ?? true));
  let fallback = false;
  for (const m of entries) {
    const entryPretty = pretty || m.params['pretty'] === 'true';
    const as = m.params['as'];
    if (as !== undefined) {
      if (options?.metaGroup === undefined) {
        if (isFallbackConversion(m) && rangeMatches(m.type, 'application/json')) fallback = true;
        continue;
      }
      const version = m.params['v'] ?? '';
      if (!conversionKinds.has(as) || m.params['g'] !== options.metaGroup || (version !== 'v1' && version !== 'v1beta1')) continue;
      const conversion: Conversion = { kind: as as Conversion['kind'], group: options.metaGroup, version };
      for (const t of text) if (rangeMatches(m.type, t)) return { mediaType: t, pretty: entryPretty, conversion };
      // Metadata conversions have protobuf messages; Tables do not.
      if (as !== 'Table' && protobuf !== undefined && rangeMatches(m.type, protobuf)) {
        return { mediaType: protobuf, pretty: false, binary: true, conversion };
      }
      continue;
    }
    for (const t of text) if (rangeMatches(m.type, t)) return { mediaType: t, pretty: entryPretty };
    if (protobuf !== undefined && m.type === protobuf && binaryAllowed()) return { mediaType: protobuf, pretty: false, binary: true };
  }
  return fallback ? { mediaType: 'application/json', pretty } : undefined;
}
