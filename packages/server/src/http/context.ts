/**
 * The request context: one per request, made by the HTTP server (or a test double) and passed down the filter chain
 * to a handler. It is the request's facts (what was asked, by whom, what the filters recorded) and its transport,
 * the one part that differs between the server and a test double. Reading the body is `decodeBody`
 * (`decode-body.ts`) and answering is the response writer (`response-writer.ts`): plain functions over a context,
 * the same for every transport, as k8s.io/apiserver's handlers decode with the negotiated serializer and answer
 * through `responsewriters` over whatever `http.ResponseWriter` they are given.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Names, Result, Status, WatchEvent } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import type { RequestRecord } from './request-record.js';
import type { TablePrinter } from './table/printer.js';

/** Response headers as the writer hands them to a transport (`Warning` and other repeated headers as arrays). */
export type ResponseHeaders = Record<string, string | string[]>;

/**
 * Where a request's bytes come from and its response's bytes go: node's HTTP/1.1 or HTTP/2 request and response
 * for the server (`request-context.ts`), captured bytes for a test double. Everything above the bytes (decoding,
 * negotiation, encoding, status codes, headers, warnings) is the writer's and the decoder's, not the transport's.
 */
export interface Transport {
  /**
   * The raw body, up to the body limit (413 RequestEntityTooLarge beyond it; 400 when the client went away). Read
   * once: later calls answer the same read.
   */
  readBody(): Promise<Result<Buffer>>;
  /** True once a response was started, or the request expired: nothing else may be answered. */
  readonly responded: boolean;
  /** True once nothing more can be written: the response ended or was dropped, the request expired, the client left. */
  readonly closed: boolean;
  /**
   * Sends the status code and the headers the writer made. `streamed`: the body follows in parts of unknown length
   * (watches, streamed lists, relays), so the headers go out at once.
   */
  writeHead(code: number, headers: ResponseHeaders, streamed: boolean): void;
  /** Writes a part of the body; false when the client is slow (wait for `drain`). */
  write(chunk: string | Uint8Array): boolean;
  /** Ends the response, with its last part (the whole body of a response that is not streamed). */
  end(last?: string | Uint8Array): void;
  /** Resolves when the client has room for more, or went away. */
  drain(): Promise<void>;
  /**
   * Drops a response its client has not taken in full: HTTP/2 resets the stream, HTTP/1.1 closes the connection.
   * Does nothing once the response was delivered.
   */
  drop(): void;
  /**
   * Ends the request now, after the writer answered `status` if it could (kube-apiserver's timeout filter): a
   * response under way is cut off, later writes are dropped, the signal aborts and a body read still waiting fails.
   */
  expire(status: Status): void;
  /**
   * Calls `listener` once when the request's signal aborts (at once if it has): for work that only needs stopping
   * then (the aggregator's proxied stream), without making the signal and its listener bookkeeping per request.
   */
  onAbort(listener: () => void): void;
}

/** The writer side of a watch or another streamed body: headers are sent when it is created, before the first part. */
export interface WatchStream {
  /** Sends one event; false when the client is slow (the caller may wait for `drain`). */
  send(event: WatchEvent): boolean;
  /** Writes bytes already encoded (a serialized event, a part of a streamed body); false when the client is slow. */
  write(chunk: string | Uint8Array): boolean;
  /** Resolves when the client has room for more events, or it went away. */
  drain(): Promise<void>;
  /** Ends the stream. */
  end(): void;
  /**
   * Drops a response its client has not taken in full: HTTP/2 resets the stream, HTTP/1.1 closes the connection,
   * and whatever was waiting for the client is freed. Does nothing once the response was delivered.
   */
  abort(): void;
  /** True once the client went away or `end` was called. */
  readonly closed: boolean;
}

/** One request: its facts, and the transport its body and response go through. */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /**
   * The request's header lines as sent (`[name, value, name, value, ...]`), so that repeated headers
   * (`Impersonate-Group`, proxy group headers) keep their values apart; `headers` joins them with `, `.
   */
  readonly rawHeaders?: readonly string[];
  readonly names: Names;
  /**
   * The client's TLS certificate chain as presented (DER, leaf first; empty when none was sent). Not verified:
   * the x509 authenticator verifies it against its CA.
   */
  readonly clientCertificates: readonly Buffer[];
  /** Set by the request-info filter. */
  info: RequestInfo;
  /** Set by authentication. */
  user: UserInfo;
  /** What the filters keep about the request: audit ID, response headers, warnings, audit annotations, the response. */
  readonly record: RequestRecord;
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal: AbortSignal;
  /** The server's Table printer of a resource that has its own (custom resources), for `as=Table` answers. */
  readonly printerFor?: ((info: RequestInfo) => TablePrinter | undefined) | undefined;
  /** Where the body comes from and the response goes. */
  readonly transport: Transport;
}

/** A filter: does its part, then calls `next` (or answers and returns without calling it). */
export type Filter = (ctx: RequestContext, next: () => Promise<void>) => Promise<void>;
