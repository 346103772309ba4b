/**
 * The path and query of a request target (the origin-form `/path?query` of the request line), as the WHATWG URL
 * parser reads them against an `https:` base. Most targets are plain: their path and query come out of the parser
 * unchanged, so they are split here without building a URL; any other target (dot segments, characters the parser
 * would percent-encode or change, absolute or scheme-relative forms) goes through the URL parser. A target the
 * parser refuses (`//`, `//[`, a scheme-relative form with a bad host) is no target at all: the caller answers 400.
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

/** Reads a request target: by hand when it is plain, else with the URL parser; undefined when it is no valid URL. */
export function parseRequestTarget(raw: string): RequestTarget | undefined {
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? '' : raw.slice(q + 1);
  if (plainPath.test(path) && !dotSegment.test(path) && (query === '' || plainQuery.test(query))) {
    // With its `?`: URLSearchParams drops one leading `?`, and a query that itself starts with `?` keeps its own.
    return { pathname: path, searchParams: new URLSearchParams(q === -1 ? '' : raw.slice(q)) };
  }
  // URL.parse would say so without throwing, but Node 20 lacks it.
  let url: URL;
  try {
    url = new URL(raw, 'https://placeholder');
  } catch {
    return undefined;
  }
  return { pathname: url.pathname, searchParams: url.searchParams };
}
