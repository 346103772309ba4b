/**
 * Answers given before a request has a context: to requests Node's HTTP/1.1 parser refuses (malformed, headers
 * over the limit, too slow), to targets that are no URL, to too many header fields, to `Expect` values other than
 * `100-continue`, and when building the context itself fails. Go's server answers most of these with a bare
 * status line; here every one is a `Status`, as JSON since nothing was negotiated yet.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { badRequest, failure, type Status } from '@svc-apiserver/api';
import type { NodeResponse } from './request-context.js';

/** kube-apiserver's (Go's) default header limit: 1 MiB for the request line and header fields. */
export const maxHeaderBytes = 1 << 20;
/** The most header fields a request may carry (Node's own default cap, which it enforces by dropping the rest). */
export const maxHeaderFields = 2000;

/** 431 for headers over {@link maxHeaderBytes}. */
export function headersTooLarge(): Status {
  return failure('Unknown', `Request header fields too large: limit is ${maxHeaderBytes}`, undefined, 431);
}

/** 431 for more than {@link maxHeaderFields} header fields. */
export function tooManyHeaderFields(): Status {
  return failure('Unknown', `Request header fields too large: at most ${maxHeaderFields} header fields`, undefined, 431);
}

/** 400 for a request target the URL parser refuses. */
export function invalidTarget(target: string): Status {
  const shown = target.length > 256 ? `${target.slice(0, 256)}...` : target;
  return badRequest(`invalid request target ${JSON.stringify(shown)}: not a valid URL`);
}

/** 417 for an `Expect` header other than `100-continue`. */
export function expectationFailed(expect: string): Status {
  return failure('Unknown', `unsupported expectation ${JSON.stringify(expect.slice(0, 256))}: only 100-continue is supported`, undefined, 417);
}

/** The answer to an error of Node's HTTP/1.1 parser, or undefined when the client is gone. */
export function parserFailure(error: Error & { code?: string; reason?: string }): Status | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'HPE_INVALID_EOF_STATE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return failure('Timeout', 'the request did not arrive in time', undefined, 408);
    default:
      return badRequest(`malformed HTTP request: ${(error.reason ?? error.message).replace(/\s+/g, ' ').slice(0, 256)}`);
  }
}

/** The JSON body of a Status, as the response writer encodes it. */
function body(status: Status): string {
  return JSON.stringify(status) + '\n';
}

/** Writes `status` on a response whose request has no context. */
export function writeBareStatus(res: NodeResponse, status: Status): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  const text = body(status);
  (res as ServerResponse).writeHead(status.code, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * Answers a request the HTTP/1.1 parser refused on its raw socket and closes the connection: the socket is ended
 * after the answer and destroyed two seconds later, so that the answer is read before any reset.
 */
export function answerOnSocket(socket: Socket, status: Status | undefined): void {
  // The parser may report more errors on the bytes after the first: the answer given stands, and the socket closes
  // on its own schedule rather than at once, which would reset it before the answer is read.
  if (answered.has(socket)) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (status === undefined || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  const text = body(status);
  socket.end(`HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  setTimeout(() => socket.destroy(), 2000).unref();
}

const answered = new WeakSet<Socket>();
