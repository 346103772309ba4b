/**
 * Go's net/url ParseRequestURI and the URL accessors kube's URL library exposes (Hostname, Port, EscapedPath, Query).
 * Hand-written: Node's WHATWG URL normalizes and resolves where Go rejects or keeps the text, so it cannot answer as
 * kube-apiserver does (`isURL('/path')` is true there, `isURL('example.com')` false).
 */

/** A URL as Go's url.URL holds it. */
export interface GoUrl {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
}

const hex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

/** Go's unescape in path or host mode: `%XX` decoded (as UTF-8 bytes); malformed escapes are errors. */
function unescape(s: string, mode: 'path' | 'host'): string | Error {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !hex(s[i + 1]!) || !hex(s[i + 2]!)) {
        return new Error(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      if (mode === 'host' && c.charCodeAt(0) < 0x80 && !shouldNotEscapeInHost(c)) {
        return new Error(`invalid character ${JSON.stringify(c)} in host name`);
      }
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function shouldNotEscapeInHost(c: string): boolean {
  return /[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]/.test(c);
}

/** Characters Go leaves unescaped in a path (shouldEscape(c, encodePath) is false). */
function pathSafe(c: string): boolean {
  return /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c);
}

function escapePath(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && pathSafe(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validEncoded(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ('!$&\'()*+,;=:@[]'.includes(c) || c === '%') continue;
    if (!pathSafe(c)) return false;
  }
  return true;
}

function splitScheme(raw: string): { scheme: string; rest: string } | Error {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) return new Error('missing protocol scheme');
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string | Error {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return new Error('missing \']\' in host');
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) {
      const h1 = unescape(host.slice(0, zone), 'host');
      if (h1 instanceof Error) return h1;
      const h2 = unescape(host.slice(zone, close), 'path');
      if (h2 instanceof Error) return h2;
      const h3 = unescape(host.slice(close), 'host');
      if (h3 instanceof Error) return h3;
      return h1 + h2 + h3;
    }
  } else {
    const colon = host.lastIndexOf(':');
    if (colon !== -1) {
      const colonPort = host.slice(colon);
      if (!validOptionalPort(colonPort)) return new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): string | Error {
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : authority.slice(at + 1);
  if (at >= 0 && !/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(authority.slice(0, at))) return new Error('net/url: invalid userinfo');
  return parseHost(host);
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, without a fragment. */
export function parseRequestUri(raw: string): GoUrl | Error {
  if (/[\x00-\x1f\x7f]/.test(raw)) return new Error('net/url: invalid control character in URL');
  if (raw === '') return new Error('empty url');
  if (raw === '*') return { scheme: '', opaque: '', host: '', path: '*', rawPath: '', rawQuery: '' };
  const split = splitScheme(raw);
  if (split instanceof Error) return split;
  const scheme = split.scheme.toLowerCase();
  let rest = split.rest;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, opaque: rest, host: '', path: '', rawPath: '', rawQuery };
    return new Error('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const h = parseAuthority(authority);
    if (h instanceof Error) return h;
    host = h;
  }
  const path = unescape(rest, 'path');
  if (path instanceof Error) return path;
  const rawPath = escapePath(path) === rest ? '' : rest;
  return { scheme, opaque: '', host, path, rawPath, rawQuery };
}

/** url.Hostname: the host without port and without IPv6 brackets. */
export function urlHostname(u: GoUrl): string {
  const { host } = splitHostPort(u.host);
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** url.Port: the port digits, or the empty string. */
export function urlPort(u: GoUrl): string {
  return splitHostPort(u.host).port;
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  const colon = hostPort.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(hostPort.slice(colon))) {
    const port = hostPort.slice(colon + 1);
    const host = hostPort.slice(0, colon);
    return { host, port };
  }
  return { host: hostPort, port: '' };
}

/** url.EscapedPath: the path as it was written when that is a valid encoding of it, else the path escaped. */
export function urlEscapedPath(u: GoUrl): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath)) {
    const decoded = unescape(u.rawPath, 'path');
    if (!(decoded instanceof Error) && decoded === u.path) return u.rawPath;
  }
  if (u.path === '*') return '*';
  return escapePath(u.path);
}

function queryUnescape(s: string): string | undefined {
  const r = unescape(s.replace(/\+/g, ' '), 'path');
  return r instanceof Error ? undefined : r;
}

/** url.Query: the query's values per key, in order; pairs with a semicolon or a bad escape are dropped. */
export function urlQuery(u: GoUrl): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = queryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    const value = queryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    const list = out.get(key) ?? [];
    list.push(value);
    out.set(key, list);
  }
  return out;
}
