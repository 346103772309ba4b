/**
 * The overload benchmark's requests: GETs over HTTP/2 sessions that the server may refuse or close under load. A
 * GET is answered with its status, latency, the time it came and its outcome in words: the status code, or why
 * there was none (see {@link Outcome}). Every GET settles within {@link answerTimeoutMs} of being handed to its
 * session, whatever the stream's state: Node's own stream timeout neither fires nor lets a stream close while the
 * stream is still pending (its session not yet connected), so the deadline is a timer of the request's own.
 * Sessions are replaced once they end or the server sends GOAWAY, more are opened when those open are full (see
 * {@link streamsPerSession}), and their errors never end the process that holds them.
 */
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type SecureClientSessionOptions } from 'node:http2';

/**
 * What became of a request: its status code (`'200'`, `'429'`, ...), or `'timeout'` (no answer within the
 * deadline, the stream cancelled), `'goaway'` (its session got GOAWAY before the answer), `'reset <code>'` (the
 * server reset the stream), `'session error <code>'` (its session failed), `'closed'` (closed without an answer
 * for any other reason), `'not sent <code>'` (the session refused the stream: it counts as not sent).
 */
export type Outcome = string;

/** One answer. */
export interface Sample {
  /** The status code; 0 when there was none. */
  readonly status: number;
  readonly ms: number;
  /** When the answer came (performance.now() of the thread that sent it). */
  readonly at: number;
  readonly outcome: Outcome;
}

/** How long an answer is awaited before its stream is cancelled and counted as a timeout. */
export const answerTimeoutMs = 30_000;

/** The outcome that means a request never left the generator. */
export const notSent = (outcome: Outcome): boolean => outcome.startsWith('not sent');

/** Why a session ended, kept on the session for the streams it fails. */
const ended = new WeakMap<ClientHttp2Session, Outcome>();

/**
 * Streams a client keeps open on one session before it opens another: Go's HTTP/2 transport (client-go's) allows
 * 1,000 on a connection whose server advertises no limit, as this server does, and dials a new connection for more.
 * A client that piled the whole flood on a few sessions would measure something no kube client does: Node's server
 * refuses new streams on a session once they hold its memory budget (`maxSessionMemory`), and after 100 refusals in
 * a row tears the session down with GOAWAY (INTERNAL_ERROR), failing every request on it.
 */
export const streamsPerSession = 1000;

/** Options of {@link sessionPool}. */
export interface PoolOptions {
  /** Streams open on a session before another is opened (default {@link streamsPerSession}). */
  readonly maxStreams?: number;
  /** How long an answer is awaited (default {@link answerTimeoutMs}). */
  readonly answerTimeoutMs?: number;
}

/** Sessions to one server. */
export interface SessionPool {
  /** A GET of `path` with `headers` on a session with room for another stream. */
  get(path: string, headers?: Record<string, string>): Promise<Sample>;
  /** Sessions opened so far beyond the first `count`: for more streams, or in place of ones that ended. */
  opened(): number;
  close(): void;
}

interface Pooled {
  readonly session: ClientHttp2Session;
  open: number;
}

/**
 * `count` sessions to `url`, used in turn while they have room for another stream (fewer than `maxStreams` open);
 * when none has, a new session is opened, as Go's transport does. A session that ended (closed, destroyed, or told
 * GOAWAY: it takes no new streams then) is left to finish its streams and replaced.
 */
export function sessionPool(url: string, tls: SecureClientSessionOptions, count: number, options: PoolOptions = {}): SessionPool {
  const maxStreams = options.maxStreams ?? streamsPerSession;
  const timeoutMs = options.answerTimeoutMs ?? answerTimeoutMs;
  let extra = -count;
  const connectOne = (): Pooled => {
    extra++;
    const s = connect(url, tls);
    s.on('goaway', (code: number) => void ended.set(s, code === constants.NGHTTP2_NO_ERROR ? 'goaway' : `goaway ${code}`));
    // A refused or failed session fails its streams, which count as unanswered; it must not end the process.
    s.on('error', (error: NodeJS.ErrnoException) => {
      if (!ended.has(s)) ended.set(s, `session error ${error.code ?? error.message}`);
    });
    return { session: s, open: 0 };
  };
  const usable = (p: Pooled): boolean => !p.session.closed && !p.session.destroyed && !ended.has(p.session);
  let sessions = Array.from({ length: count }, connectOne);
  let turn = 0;
  const pick = (): Pooled => {
    for (let tried = 0; tried < sessions.length; tried++) {
      const p = sessions[turn++ % sessions.length]!;
      if (p.open < maxStreams && usable(p)) return p;
    }
    // Ended sessions leave the pool (a gracefully closed one still finishes its streams); a new one takes the load.
    for (const p of sessions) if (!usable(p) && !p.session.closed && !p.session.destroyed) p.session.close();
    sessions = sessions.filter(usable);
    const fresh = connectOne();
    sessions.push(fresh);
    return fresh;
  };
  return {
    async get(path, headers) {
      const p = pick();
      p.open++;
      try {
        return await h2get(p.session, path, headers, timeoutMs);
      } finally {
        p.open--;
      }
    },
    opened: () => extra,
    close() {
      for (const p of sessions) p.session.close();
    },
  };
}

/** A GET of `path` with `headers` over `session`, awaited at most `timeoutMs`. */
export function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}, timeoutMs = answerTimeoutMs): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    let status = 0;
    let settled = false;
    let why: Outcome | undefined;
    let req: ClientHttp2Stream | undefined;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      const at = performance.now();
      const rst = req?.rstCode;
      const outcome = status !== 0 ? String(status)
        : why ?? ended.get(session) ?? (rst !== undefined && rst !== constants.NGHTTP2_NO_ERROR ? `reset ${rst}` : 'closed');
      resolve({ status, ms: at - started, at, outcome });
    };
    const deadline = setTimeout(() => {
      status = 0;
      why = 'timeout';
      // A pending stream emits 'close' only once its session connects or ends: the request settles now regardless.
      req?.close(constants.NGHTTP2_CANCEL);
      done();
    }, timeoutMs);
    try {
      req = session.request({ ':path': path, accept: 'application/json', ...headers }, { endStream: true });
    } catch (error) {
      why = `not sent ${(error as NodeJS.ErrnoException).code ?? 'error'}`;
      return done();
    }
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('error', (error: NodeJS.ErrnoException) => {
      status = 0;
      why ??= ended.get(session) ?? (error.code === 'ERR_HTTP2_STREAM_ERROR' ? `reset ${req?.rstCode ?? '?'}` : `stream error ${error.code ?? error.message}`);
    });
    req.on('close', done);
    req.resume();
  });
}
