/**
 * Response negotiation: which media type a response is written in (k8s.io/apiserver's negotiation package).
 * JSON is the default; YAML when asked; `?pretty=true` indents. Tables (`as=Table`) are not served yet: an Accept
 * list that asks only for a Table falls back to plain JSON, which kubectl handles.
 */
import { parseAccept, rangeMatches, type MediaType } from './media-type.js';

/** Media types the server writes objects in. */
export const responseMediaTypes = ['application/json', 'application/yaml'] as const;

/** A negotiated response media type. */
export type ResponseMediaType = (typeof responseMediaTypes)[number];

/** What a response is written as. */
export interface Negotiated {
  readonly mediaType: ResponseMediaType;
  readonly pretty: boolean;
}

/** True for `as=Table` style conversions this server can fall back from to the plain object. */
function isFallbackConversion(m: MediaType): boolean {
  return m.params['as'] === 'Table' || m.params['as'] === 'PartialObjectMetadata' || m.params['as'] === 'PartialObjectMetadataList';
}

/** Chooses the response media type; undefined when nothing in Accept can be produced (406). */
export function negotiateResponse(accept: string | undefined, query: URLSearchParams): Negotiated | undefined {
  const pretty = ['true', '1'].includes(query.get('pretty') ?? '');
  const entries = parseAccept(accept);
  if (entries.length === 0) return { mediaType: 'application/json', pretty };
  let fallback = false;
  for (const m of entries) {
    if (m.params['as'] !== undefined) {
      if (isFallbackConversion(m) && rangeMatches(m.type, 'application/json')) fallback = true;
      continue;
    }
    for (const t of responseMediaTypes) {
      if (rangeMatches(m.type, t)) return { mediaType: t, pretty: pretty || m.params['pretty'] === 'true' };
    }
  }
  return fallback ? { mediaType: 'application/json', pretty } : undefined;
}
