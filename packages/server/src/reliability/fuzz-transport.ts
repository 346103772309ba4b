/**
 * The fuzzer's clients. HTTP/1.1 is written by hand on TLS sockets, byte for byte, so that request lines, header
 * fields and framing can be anything at all (Node's own client refuses most malformed requests before sending
 * them); kept-alive connections are reused. HTTP/2 goes through node:http2 sessions. Both report what came back:
 * an answer (status, headers, body), a clean close or reset without one, or nothing before the deadline.
 */
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { connect as http2Connect, constants as h2, type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';

/** A client identity: a certificate and key, or none. */
export interface ClientIdentity {
  readonly certPem?: string;
  readonly keyPem?: string;
}

/** A request body, sent at once or in pieces. */
export interface FuzzBody {
  readonly chunks: readonly Buffer[];
  /** Pause between pieces (slow clients). */
  readonly delayMs?: number;
  /** Stop after the first piece and never finish (a stalled upload). */
  readonly stall?: boolean;
}

/** One request as the fuzzer sends it. */
export interface FuzzRequest {
  readonly protocol: 'http1' | 'http2';
  readonly method: string;
  /** The request target as written on the request line (or `:path`). */
  readonly target: string;
  /** Header fields in order; names may repeat. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: FuzzBody;
  /** HTTP/1.1 only: these bytes instead of a request built from the fields above. */
  readonly raw?: Buffer;
  /** HTTP/1.1: frame the body as chunks instead of with Content-Length. */
  readonly chunked?: boolean;
  /** A Content-Length to declare other than the body's. */
  readonly declaredLength?: number;
  readonly identity?: ClientIdentity;
  /** How long to wait for the answer. */
  readonly deadlineMs: number;
  /** HTTP/1.1: do not reuse the connection afterwards (its framing may be broken on purpose). */
  readonly closeAfter?: boolean;
  /** A successful answer counts once its headers are in (a watch or other stream may go on). */
  readonly headersOnly?: boolean;
}

/** What came back. */
export type FuzzOutcome =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Record<string, string | string[]>; readonly body: Buffer; readonly ms: number }
  /** The connection or stream ended without an answer (a reset, or a close). */
  | { readonly kind: 'closed'; readonly why: string; readonly ms: number }
  /** No answer before the deadline. */
  | { readonly kind: 'hang'; readonly ms: number }
  /** Our own client refused to send it (HTTP/2 header rules); not the server's doing. */
  | { readonly kind: 'unsendable'; readonly why: string };

/** Sends requests over kept-alive connections. */
export interface FuzzTransport {
  send(request: FuzzRequest): Promise<FuzzOutcome>;
  close(): void;
}

/** A minimal incremental HTTP/1.1 response reader. */
class ResponseReader {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly head: boolean, private readonly headersOnly: boolean) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
  }

  /** A complete response (1xx skipped), or undefined when more bytes are needed; `atEnd` when the peer closed. */
  take(atEnd: boolean): { status: number; headers: Record<string, string | string[]>; body: Buffer; close: boolean } | undefined {
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const lines = this.buf.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
      if (!Number.isFinite(status)) throw new Error(`bad status line ${JSON.stringify(lines[0]?.slice(0, 80))}`);
      const headers: Record<string, string | string[]> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        const had = headers[name];
        headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      }
      const rest = this.buf.subarray(end + 4);
      if (status >= 100 && status < 200) {
        this.buf = rest;
        continue;
      }
      const close = /close/i.test(String(headers['connection'] ?? ''));
      if (this.headersOnly && status >= 200 && status < 300) return { status, headers, body: Buffer.alloc(0), close: true };
      if (this.head || status === 204 || status === 304) {
        this.buf = rest;
        return { status, headers, body: Buffer.alloc(0), close };
      }
      if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) {
        const parts: Buffer[] = [];
        let at = 0;
        for (;;) {
          const lineEnd = rest.indexOf('\r\n', at);
          if (lineEnd < 0) return undefined;
          const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
          if (!Number.isFinite(size)) throw new Error('bad chunk size');
          if (rest.length < lineEnd + 2 + size + 2) return undefined;
          if (size === 0) {
            this.buf = rest.subarray(lineEnd + 4);
            return { status, headers, body: Buffer.concat(parts), close };
          }
          parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
        }
      }
      const length = headers['content-length'];
      if (length !== undefined) {
        const n = Number(length);
        if (rest.length < n) return undefined;
        this.buf = rest.subarray(n);
        return { status, headers, body: rest.subarray(0, n), close };
      }
      if (!atEnd) return undefined;
      this.buf = Buffer.alloc(0);
      return { status, headers, body: rest, close: true };
    }
  }
}

function requestBytes(r: FuzzRequest, host: string): Buffer {
  if (r.raw !== undefined) return r.raw;
  const body = r.body === undefined ? undefined : Buffer.concat(r.body.chunks);
  let head = `${r.method} ${r.target} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [k, v] of r.headers) head += `${k}: ${v}\r\n`;
  if (body !== undefined || r.declaredLength !== undefined) {
    if (r.chunked) head += 'Transfer-Encoding: chunked\r\n';
    else head += `Content-Length: ${r.declaredLength ?? body!.length}\r\n`;
  }
  return Buffer.from(head + '\r\n', 'latin1');
}

function chunkFrame(piece: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const connectionSpecific = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

/**
 * True when HTTP/2 itself lets the server refuse the request without an answer: a header field over nghttp2's
 * 64 KiB, a header list over the 1 MiB the server advertises (both make HPACK state diverge, so the whole
 * connection goes), connection-specific fields, or field values a header may not hold (a malformed request, a
 * stream error). Such requests go on a connection of their own.
 */
export function http2Refusable(r: FuzzRequest): boolean {
  let total = r.target.length + 32;
  // A :path must be an origin-form target of visible ASCII ('*' only for OPTIONS): anything else is malformed.
  if (r.target.length > 60_000 || !(/^\/[\x21-\x7e]*$/.test(r.target) || (r.target === '*' && r.method === 'OPTIONS'))) return true;
  if (r.headers.length > maxHeaderFieldsSent) return true;
  // A content-length other than the DATA sent is a malformed request.
  if (r.declaredLength !== undefined && r.declaredLength !== (r.body?.chunks.reduce((n, c) => n + c.length, 0) ?? 0)) return true;
  for (const [k, v] of r.headers) {
    const name = k.toLowerCase();
    if (k.length + v.length > 60_000 || connectionSpecific.has(name) || (name === 'te' && v !== 'trailers')) return true;
    // Values of visible ASCII only: control characters, outer whitespace and other bytes are malformed fields.
    if (!/^[\x20-\x7e\t]*$/.test(v) || v !== v.trim()) return true;
    if (name === 'content-length' && !/^\d+$/.test(v)) return true;
    total += k.length + v.length + 32;
  }
  return total > 1 << 20;
}

/** Header fields past this many may be refused by HTTP/2 itself rather than answered 431. */
const maxHeaderFieldsSent = 2000;

/**
 * Streams one shared HTTP/2 session may reset before it is retired. nghttp2 (Node's HTTP/2 stack), since its fix for
 * the rapid-reset attack (CVE-2023-44487), allows a client a burst of 1,000 RST_STREAMs and then 33 a second, and
 * answers more with GOAWAY; every headers-only case (a watch, a large answer) ends with a reset, and the fuzzer sends
 * them faster than that. So a session stops taking requests well before its burst is spent and is closed once its
 * streams have ended, as a client that cancels many requests would spread them over connections.
 */
export const resetsPerSession = 500;

/** Connections to one server, per identity. */
export function fuzzTransport(host: string, port: number, caPem: string): FuzzTransport {
  const idle = new Map<string, TLSSocket[]>();
  const sessions = new Map<string, ClientHttp2Session>();
  const resets = new WeakMap<ClientHttp2Session, number>();
  const all = new Set<TLSSocket>();
  const isolatedSessions = new Set<ClientHttp2Session>();
  const retired = new Set<ClientHttp2Session>();
  const key = (id?: ClientIdentity): string => id?.certPem ?? '';

  const openSocket = (id: ClientIdentity | undefined): Promise<TLSSocket> => new Promise((resolve, reject) => {
    const s = tlsConnect({
      host, port, ca: caPem, servername: 'localhost', ALPNProtocols: ['http/1.1'], rejectUnauthorized: false,
      ...(id?.certPem ? { cert: id.certPem, key: id.keyPem } : {}),
    });
    s.setNoDelay(true);
    all.add(s);
    s.once('close', () => all.delete(s));
    s.once('secureConnect', () => resolve(s));
    s.once('error', reject);
  });

  /** A kept-alive connection the server closed just as it was reused carries no answer: the request goes again. */
  const sendHttp1 = async (r: FuzzRequest): Promise<FuzzOutcome> => {
    const first = await sendHttp1Once(r, true);
    if (first.kind === 'closed' && first.why === 'stale connection') return sendHttp1Once(r, false);
    return first;
  };

  const sendHttp1Once = async (r: FuzzRequest, reuse: boolean): Promise<FuzzOutcome> => {
    const started = performance.now();
    const ms = () => performance.now() - started;
    const pool = idle.get(key(r.identity)) ?? [];
    idle.set(key(r.identity), pool);
    let socket: TLSSocket;
    const reused = reuse ? pool.pop() : undefined;
    if (reused && !reused.destroyed && reused.writable) socket = reused;
    else {
      try {
        socket = await openSocket(r.identity);
      } catch (e) {
        return { kind: 'closed', why: `connect: ${(e as Error).message}`, ms: ms() };
      }
    }
    const reader = new ResponseReader(r.method === 'HEAD', r.headersOnly === true);
    return new Promise<FuzzOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: FuzzOutcome, keep: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onError);
        if (keep && !r.closeAfter && !socket.destroyed) pool.push(socket);
        else socket.destroy();
        resolve(outcome);
      };
      const onData = (chunk: Buffer): void => {
        received = true;
        reader.push(chunk);
        try {
          const got = reader.take(false);
          if (got) finish({ kind: 'answer', status: got.status, headers: got.headers, body: got.body, ms: ms() }, !got.close && !bodyPending);
        } catch (e) {
          finish({ kind: 'closed', why: `unreadable answer: ${(e as Error).message}`, ms: ms() }, false);
        }
      };
      let received = false;
      const onClose = (): void => {
        try {
          const got = reader.take(true);
          if (got) return finish({ kind: 'answer', status: got.status, headers: got.headers, body: got.body, ms: ms() }, false);
        } catch {
          // fall through: no readable answer
        }
        finish({ kind: 'closed', why: socket === reused && !received ? 'stale connection' : 'connection closed', ms: ms() }, false);
      };
      const onError = (): void => {
        // A write error (the server closed first) is not the end: the answer may still be in the read buffer.
      };
      const timer = setTimeout(() => finish({ kind: 'hang', ms: ms() }, false), r.deadlineMs);
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.on('error', onError);
      let bodyPending = r.body !== undefined;
      socket.write(requestBytes(r, `${host}:${port}`));
      if (r.body !== undefined && r.raw === undefined) {
        void (async () => {
          const pieces = r.body!.chunks;
          for (let i = 0; i < pieces.length; i++) {
            if (settled || socket.destroyed) return;
            socket.write(r.chunked ? chunkFrame(pieces[i]!) : pieces[i]!);
            if (r.body!.stall) return;
            if (r.body!.delayMs) await sleep(r.body!.delayMs);
          }
          if (r.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
          bodyPending = false;
        })();
      }
    });
  };

  const session = (id: ClientIdentity | undefined, fresh = false): ClientHttp2Session => {
    const k = key(id);
    const existing = sessions.get(k);
    if (!fresh && existing && !existing.closed && !existing.destroyed) return existing;
    const s = http2Connect(`https://${host}:${port}`, {
      ca: caPem, servername: 'localhost', rejectUnauthorized: false,
      ...(id?.certPem ? { cert: id.certPem, key: id.keyPem } : {}),
      maxHeaderListPairs: 100_000, settings: { maxHeaderListSize: 4 << 20 }, maxSessionMemory: 1024,
    } as Parameters<typeof http2Connect>[1]);
    if (fresh) {
      s.on('error', () => {});
      isolatedSessions.add(s);
      s.on('close', () => isolatedSessions.delete(s));
      return s;
    }
    const forget = (): void => {
      if (sessions.get(k) === s) sessions.delete(k);
    };
    s.on('error', forget);
    s.on('close', forget);
    s.on('goaway', forget);
    sessions.set(k, s);
    return s;
  };

  /** Takes a shared session out of use; it closes once its open streams have ended. */
  const retire = (s: ClientHttp2Session): void => {
    for (const [k, v] of sessions) if (v === s) sessions.delete(k);
    retired.add(s);
    s.on('close', () => retired.delete(s));
    if (!s.closed) s.close();
  };

  const sendHttp2 = (r: FuzzRequest): Promise<FuzzOutcome> => {
    const isolated = http2Refusable(r);
    const started = performance.now();
    const ms = () => performance.now() - started;
    const headers: OutgoingHttpHeaders = { ':method': r.method, ':path': r.target };
    for (const [k, v] of r.headers) {
      const name = k.toLowerCase();
      const had = headers[name];
      headers[name] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [String(had), v];
    }
    if (r.declaredLength !== undefined) headers['content-length'] = String(r.declaredLength);
    let stream: ReturnType<ClientHttp2Session['request']>;
    const own = isolated ? session(r.identity, true) : session(r.identity);
    try {
      stream = own.request(headers, { endStream: r.body === undefined });
    } catch (e) {
      if (isolated) own.destroy();
      return Promise.resolve({ kind: 'unsendable', why: (e as Error).message });
    }
    return new Promise<FuzzOutcome>((resolve) => {
      let settled = false;
      let status = 0;
      let responseHeaders: Record<string, string | string[]> = {};
      const parts: Buffer[] = [];
      let ended = false;
      const finish = (outcome: FuzzOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Only a stream given up on (or whose headers were all the case wanted) is cancelled; a shared session that
        // has reset its budget of streams takes no more requests and closes once its streams have ended.
        if (!ended && !stream.closed) {
          stream.close(h2.NGHTTP2_CANCEL);
          const count = (resets.get(own) ?? 0) + 1;
          resets.set(own, count);
          if (!isolated && count === resetsPerSession) retire(own);
        }
        if (isolated) own.close();
        resolve(outcome);
      };
      const timer = setTimeout(() => finish({ kind: 'hang', ms: ms() }), r.deadlineMs);
      const unanswered = (why: string): void => {
        if (!settled && stream.rstCode === h2.NGHTTP2_REFUSED_STREAM && retired.has(own)) {
          // Refused by the client's own GOAWAY as its session retired, so never processed: it goes on a new session.
          settled = true;
          clearTimeout(timer);
          resolve(sendHttp2(r));
          return;
        }
        finish({ kind: 'closed', why, ms: ms() });
      };
      stream.on('response', (h) => {
        status = Number(h[':status']);
        responseHeaders = Object.fromEntries(Object.entries(h).filter(([n]) => !n.startsWith(':'))
          .map(([n, v]) => [n, Array.isArray(v) ? v : String(v)]));
        if (r.headersOnly && status >= 200 && status < 300) finish({ kind: 'answer', status, headers: responseHeaders, body: Buffer.alloc(0), ms: ms() });
      });
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        ended = true;
        if (status === 0) finish({ kind: 'closed', why: 'stream ended without headers', ms: ms() });
        else finish({ kind: 'answer', status, headers: responseHeaders, body: Buffer.concat(parts), ms: ms() });
      });
      stream.on('error', (e: Error & { code?: string }) => {
        // A reset after a complete answer (the server's "stop sending") still counts as the answer.
        if (status !== 0) finish({ kind: 'answer', status, headers: responseHeaders, body: Buffer.concat(parts), ms: ms() });
        else unanswered(e.message);
      });
      stream.on('close', () => {
        if (status !== 0) finish({ kind: 'answer', status, headers: responseHeaders, body: Buffer.concat(parts), ms: ms() });
        else unanswered(`stream closed (${stream.rstCode})`);
      });
      if (r.body !== undefined) {
        void (async () => {
          for (const piece of r.body!.chunks) {
            if (settled || stream.closed) return;
            stream.write(piece);
            if (r.body!.stall) return;
            if (r.body!.delayMs) await sleep(r.body!.delayMs);
          }
          if (!stream.closed) stream.end();
        })();
      }
    });
  };

  return {
    send: (r) => (r.protocol === 'http1' ? sendHttp1(r) : sendHttp2(r)),
    close() {
      for (const s of all) s.destroy();
      for (const s of sessions.values()) s.destroy();
      for (const s of isolatedSessions) s.destroy();
      for (const s of retired) s.destroy();
      idle.clear();
      sessions.clear();
    },
  };
}
