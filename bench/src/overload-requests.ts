/**
 * The overload benchmark's requests: a GET over an HTTP/2 session, answered with its status, latency and the time it
 * came; a failed stream counts as status 0.
 */
import type { ClientHttp2Session } from 'node:http2';

/** One answer. */
export interface Sample {
  readonly status: number;
  readonly ms: number;
  /** When the answer came (performance.now() of the thread that sent it). */
  readonly at: number;
}

/** A GET of `path` with `headers` over `session`. */
export function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = session.request({ ':path': path, accept: 'application/json', ...headers });
    let status = 0;
    req.on('response', (h) => (status = Number(h[':status'])));
    req.resume();
    req.on('end', () => resolve({ status, ms: performance.now() - started, at: performance.now() }));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started, at: performance.now() }));
    req.end();
  });
}
