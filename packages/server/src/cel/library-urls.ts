/**
 * Kubernetes' URL library (document 3 §Expression language; k8s.io/apiserver/pkg/cel/library urls.go): `isURL`,
 * `url()` and the accessors `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`, with
 * Go's ParseRequestURI deciding what a URL is (go-url.ts).
 */
import { parseRequestUri, urlEscapedPath, urlHostname, urlPort, urlQuery, type GoUrl } from './go-url.js';
import { celError, type CelLibrary } from './library.js';

/** A parsed URL value (`kubernetes.URL`). */
export class UrlValue {
  constructor(readonly url: GoUrl) {}
}

/** The URL library. */
export const urlsLibrary: CelLibrary = {
  name: 'urls',
  types: [{ name: 'kubernetes.URL', ctor: UrlValue, fields: {} }],
  overloads: [
    {
      signature: 'url(string): kubernetes.URL',
      impl: (s: string) => {
        const u = parseRequestUri(s);
        if (u instanceof Error) throw celError(`URL parse error during conversion from string: ${u.message}`);
        return new UrlValue(u);
      },
    },
    { signature: 'isURL(string): bool', impl: (s: string) => !(parseRequestUri(s) instanceof Error) },
    { signature: 'kubernetes.URL.getScheme(): string', impl: (u: UrlValue) => u.url.scheme },
    { signature: 'kubernetes.URL.getHost(): string', impl: (u: UrlValue) => u.url.host },
    { signature: 'kubernetes.URL.getHostname(): string', impl: (u: UrlValue) => urlHostname(u.url) },
    { signature: 'kubernetes.URL.getPort(): string', impl: (u: UrlValue) => urlPort(u.url) },
    { signature: 'kubernetes.URL.getEscapedPath(): string', impl: (u: UrlValue) => urlEscapedPath(u.url) },
    {
      signature: 'kubernetes.URL.getQuery(): map<string, list<string>>',
      impl: (u: UrlValue) => {
        const out: Record<string, string[]> = Object.create(null);
        for (const [k, v] of urlQuery(u.url)) out[k] = v;
        return out;
      },
    },
  ],
};
