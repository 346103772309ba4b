/**
 * The overload benchmark's requests: GETs over HTTP/2 sessions that the server may refuse or close under load. A
 * GET is answered with its status, latency and the time it came; one that failed, or got no answer within 30 s
 * (then its stream is cancelled), counts as status 0. Sessions are replaced once the server closed them, and their
 * errors never end the process that holds them.
 */
import { connect, constants, type ClientHttp2Session, type SecureClientSessionOptions } from 'node:http2';

/** One answer. */
export interface Sample {
  readonly status: number;
  readonly ms: number;
  /** When the answer came (performance.now() of the thread that sent it). */
  readonly at: number;
}

/** How long an answer is awaited before its stream is cancelled and counted as status 0. */
const answerTimeoutMs = 30_000;

/** `count` sessions to `url`, used in turn; a session the server closed (GOAWAY) or that failed is replaced. */
export function sessionPool(url: string, tls: SecureClientSessionOptions, count: number): { next(): ClientHttp2Session; close(): void } {
  const open = (): ClientHttp2Session => {
    const s = connect(url, tls);
    // A refused or closed session fails its streams, which count as unanswered; it must not end the process.
    s.on('error', () => {});
    return s;
  };
  const sessions = Array.from({ length: count }, open);
  let turn = 0;
  return {
    next() {
      const i = turn++ % sessions.length;
      const s = sessions[i]!;
      if (!s.closed && !s.destroyed) return s;
      return (sessions[i] = open());
    },
    close() {
      for (const s of sessions) s.close();
    },
  };
}

/** A GET of `path` with `headers` over `session`. */
export function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    let status = 0;
    const done = (): void => {
      const at = performance.now();
      resolve({ status, ms: at - started, at });
    };
    let req;
    try {
      req = session.request({ ':path': path, accept: 'application/json', ...headers }, { endStream: true });
    } catch {
      return done();
    }
    req.setTimeout(answerTimeoutMs, () => {
      status = 0;
      req.close(constants.NGHTTP2_CANCEL);
    });
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('error', () => (status = 0));
    req.on('close', done);
    req.resume();
  });
}
