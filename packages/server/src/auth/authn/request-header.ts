/**
 * Authenticating proxy (kube's requestheader authenticator, `--requestheader-*` flags, document 2
 * §Authenticating proxy): identity headers are read only from a request whose client certificate verifies
 * against the proxy CA bundle and, when names are configured, has one of the allowed common names. Extra keys are
 * the header name after the prefix, lowercased and percent-decoded.
 */
import { headerNames, headerValues, type Authenticator } from './authenticator.js';
import type { CaBundle } from './ca-bundle.js';
import { chainVerifier, subjectValues } from './x509.js';

/** The `--requestheader-*` settings. */
export interface RequestHeaderOptions {
  readonly bundle: CaBundle;
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

/** The request-header authenticator. */
export interface RequestHeaderAuthenticator extends Authenticator {
  /** Every header name the proxy sets (lowercase), removed from requests after authentication. */
  readonly headerNamesToStrip: (present: readonly string[]) => string[];
}

/** Percent-decodes an extra key (url.PathUnescape), keeping a malformed key as it is. */
export function decodeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** The request-header authenticator. */
export function requestHeaderAuthenticator(o: RequestHeaderOptions): RequestHeaderAuthenticator {
  const verify = chainVerifier(o.bundle);
  const usernameHeaders = o.usernameHeaders.map((h) => h.trim().toLowerCase()).filter(Boolean);
  const groupHeaders = o.groupHeaders.map((h) => h.trim().toLowerCase()).filter(Boolean);
  const prefixes = o.extraHeaderPrefixes.map((h) => h.trim().toLowerCase()).filter(Boolean);
  return {
    name: 'request-header',
    headerNamesToStrip: (present) => [
      ...usernameHeaders,
      ...groupHeaders,
      ...present.filter((h) => prefixes.some((p) => h.startsWith(p))),
    ],
    async authenticate(request) {
      if (request.clientCertificates.length === 0) return { kind: 'none' };
      const verdict = verify(request.clientCertificates);
      if (!verdict.ok) return { kind: 'error', message: `request-header proxy certificate: ${verdict.error}` };
      if (o.allowedNames.length > 0) {
        const cn = subjectValues(verdict.value.subject, 'CN')[0] ?? '';
        if (!o.allowedNames.includes(cn)) return { kind: 'error', message: 'request-header proxy certificate has a common name that is not allowed' };
      }
      let username = '';
      for (const h of usernameHeaders) {
        username = headerValues(request, h).map((v) => v.trim()).find((v) => v !== '') ?? '';
        if (username !== '') break;
      }
      // A trusted proxy that names nobody: the request is not this method's (its certificate may still be a user's).
      if (username === '') return { kind: 'none' };
      const groups = groupHeaders.flatMap((h) => headerValues(request, h));
      const extra: Record<string, string[]> = {};
      for (const name of headerNames(request)) {
        const prefix = prefixes.find((p) => name.startsWith(p));
        if (prefix === undefined) continue;
        const key = decodeExtraKey(name.slice(prefix.length).toLowerCase());
        if (key === '') continue;
        (extra[key] ??= []).push(...headerValues(request, name));
      }
      return {
        kind: 'user',
        method: 'request-header',
        user: { username, groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) },
      };
    },
  };
}
