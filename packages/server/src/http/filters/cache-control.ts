/**
 * The cache-control filter (k8s.io/apiserver's WithCacheControl): every answer of the server is private to the
 * user it was made for, since every path is behind authentication and authorization, so every response says
 * `Cache-Control: no-cache, private` unless its handler names its own policy (the OpenAPI v3 documents addressed by
 * their hash are `public, immutable`; the issuer discovery documents are public for an hour). It stands early in
 * the chain, as kube's does, so refusals (401, 403, 429, 504) carry it too.
 */
import type { Filter } from '../context.js';

/** The header kube-apiserver puts on every response. */
export const privateNoCache = { name: 'Cache-Control', value: 'no-cache, private' } as const;

/** The cache-control filter. */
export function cacheControl(): Filter {
  return (ctx, next) => {
    ctx.record.responseHeaders[privateNoCache.name] = privateNoCache.value;
    return next();
  };
}
