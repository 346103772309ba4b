/**
 * Ends HTTP/2 sessions that stopped reading their connection. nghttp2, since its fix for the "rapid reset" attack
 * (CVE-2023-44487), answers a client that resets streams faster than it allows (a burst of 1,000, then 33 a second,
 * counting every RST_STREAM it receives) with GOAWAY, and from then on wants neither to read nor to write. Node 20
 * then stops reading the socket but never closes the session: the connection, the streams whose resets were
 * ignored and the requests on them (watches with their cache subscriptions) stay for good, even after the client
 * has gone. Nothing in Node's API reports that state, so the session is asked for a PING (which the client's HTTP/2
 * stack answers by itself) shortly after the client reset streams, and after a quiet minute otherwise; a session
 * that does not answer within the timeout is destroyed. kube-apiserver has no such check because Go's HTTP/2
 * server closes the connection itself.
 */
import { constants, type Http2Session, type ServerHttp2Stream } from 'node:http2';

/** When sessions are checked. */
export interface SessionLivenessOptions {
  /** Quiet time after a stream the client reset before the session is checked (default 250 ms). */
  readonly afterResetMs?: number;
  /** Quiet time after any other stream activity before the session is checked (default 60 s). */
  readonly idleMs?: number;
  /** How long a PING may go unanswered (default 10 s). */
  readonly timeoutMs?: number;
}

/** Watches one server session until it closes; destroys it when it stops answering. */
export function watchSessionLiveness(session: Http2Session, options: SessionLivenessOptions = {}): void {
  const afterResetMs = options.afterResetMs ?? 250;
  const idleMs = options.idleMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let lastActivity = Date.now();
  let resetSeen = false;
  let pinging = false;
  let timer: NodeJS.Timeout | undefined;

  const arm = (ms: number): void => {
    clearTimeout(timer);
    timer = setTimeout(check, ms);
    timer.unref();
  };
  const activity = (): void => {
    lastActivity = Date.now();
    // Only a reset may shorten the wait; ordinary activity just moves the deadline the running timer checks.
    if (resetSeen && !pinging) arm(afterResetMs);
  };

  const end = (): void => {
    // Node 20 does not close the connection of a session nghttp2 stopped reading, even when the session is destroyed:
    // the socket is ended too (destroySoon is what the session's socket proxy allows).
    const socket = session.socket;
    session.destroy(undefined, constants.NGHTTP2_ENHANCE_YOUR_CALM);
    try {
      socket.destroySoon();
    } catch {
      // ERR_HTTP2_SOCKET_UNBOUND: the session has already let go of its socket, which it closes itself.
    }
  };

  function check(): void {
    if (session.destroyed || session.closed || pinging) return;
    const quiet = Date.now() - lastActivity;
    const due = resetSeen ? afterResetMs : idleMs;
    if (quiet < due) return arm(due - quiet);
    pinging = true;
    let answered = false;
    const deadline = setTimeout(() => {
      // The answer may be waiting unread behind a busy turn of the event loop: decide after the next poll phase.
      setImmediate(() => {
        if (!answered && !session.destroyed) end();
      });
    }, timeoutMs);
    deadline.unref();
    const sent = session.ping((error) => {
      answered = true;
      clearTimeout(deadline);
      pinging = false;
      if (error !== null && !session.destroyed) {
        end();
        return;
      }
      resetSeen = false;
      arm(idleMs);
    });
    if (!sent) {
      // Too many PINGs outstanding already: the client is not answering them.
      clearTimeout(deadline);
      end();
    }
  }

  session.on('stream', (stream: ServerHttp2Stream) => {
    activity();
    stream.once('close', () => {
      if (stream.rstCode !== constants.NGHTTP2_NO_ERROR) resetSeen = true;
      activity();
    });
  });
  session.once('close', () => clearTimeout(timer));
  arm(idleMs);
}
