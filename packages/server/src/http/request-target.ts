/**
 * The path and query of a request target (the origin-form `/path?query` of the request line), as the WHATWG URL
 * parser reads them against an `https:` base. Most targets are plain: their path and query come out of the parser
 * unchanged, so they are split here without building a URL; any other target (dot segments, characters the parser
 * would percent-encode or change, absolute or scheme-relative forms) goes through the URL parser. A target the
 * parser refuses (`//`, `//[`, a scheme-relative form with a bad host) is no target at all: the caller answers 400.
 *
 * The path is then percent-decoded, as Go's URL parser decodes `URL.Path`, which kube-apiserver routes and reads
 * request info from: `/clusterroles/system%3Aview` names `system:view`, and `%2F` is a slash like any other. A
 * malformed escape (`%zz`, a lone `%`) makes the target invalid, as Go's server refuses the request line.
 */

/** The parts of a request target the server reads. */
export interface RequestTarget {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * Characters the URL parser leaves as they are in an `https:` path, without `.` runs to check (below). `%` stays:
 * the parser does not decode percent-escapes in paths (only `%2e` dot segments, which the segment check excludes).
 */
const plainPath = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@%/]*$/;
/** A dot segment (`.`, `..`, or one spelled with `%2e`), which the parser resolves. */
const dotSegment = /(^|\/)(\.|%2e){1,2}(\/|$)/i;
/** Characters the URL parser leaves as they are in the query of a special URL (no `'`, `#`, spaces or controls). */
const plainQuery = /^[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;

/** A `%` not followed by two hex digits. */
const badEscape = /%(?![0-9A-Fa-f]{2})/;

/**
 * A path with its percent-escapes decoded to the bytes they stand for, read as UTF-8 (bytes that are no UTF-8 become
 * U+FFFD, where Go keeps them raw: such a segment names nothing either way); undefined when an escape is malformed.
 */
export function unescapePath(path: string): string | undefined {
  if (!path.includes('%')) return path;
  if (badEscape.test(path)) return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    // Escapes of bytes that are no UTF-8: decoded byte by byte.
    const bytes: number[] = [];
    for (let i = 0; i < path.length; i++) {
      if (path[i] === '%') {
        bytes.push(Number.parseInt(path.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        for (const b of Buffer.from(path[i]!, 'utf8')) bytes.push(b);
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
}

/** Reads a request target: by hand when it is plain, else with the URL parser; undefined when it is no valid URL. */
export function parseRequestTarget(raw: string): RequestTarget | undefined {
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? '' : raw.slice(q + 1);
  let pathname: string;
  let searchParams: URLSearchParams;
  if (plainPath.test(path) && !dotSegment.test(path) && (query === '' || plainQuery.test(query))) {
    pathname = path;
    // With its `?`: URLSearchParams drops one leading `?`, and a query that itself starts with `?` keeps its own.
    searchParams = new URLSearchParams(q === -1 ? '' : raw.slice(q));
  } else {
    // URL.parse would say so without throwing, but Node 20 lacks it.
    let url: URL;
    try {
      url = new URL(raw, 'https://placeholder');
    } catch {
      return undefined;
    }
    pathname = url.pathname;
    searchParams = url.searchParams;
  }
  const decoded = unescapePath(pathname);
  return decoded === undefined ? undefined : { pathname: decoded, searchParams };
}
