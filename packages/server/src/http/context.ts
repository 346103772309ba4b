/**
 * The request context: one per request, made by the HTTP server and passed down the filter chain to a handler.
 * It carries the parsed request info and the identity, and owns reading the body and writing the response so that
 * every handler negotiates, encodes and reports failures the same way.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { KubeObject, Names, Result, Status, WatchEvent } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import type { RequestRecord } from './request-record.js';

/** A decoded request body. */
export interface DecodedBody {
  /** The media type the body was sent in, without parameters (`application/json`, `application/yaml`, a patch type). */
  readonly mediaType: string;
  /** The decoded document. */
  readonly object: KubeObject;
  /**
   * Duplicated fields of the document, worded as kube-apiserver's strict decoders word them (`duplicate field
   * "spec.x"` for JSON, `line 3: key "x" already set in map` for YAML); for field validation.
   */
  readonly duplicateFields?: readonly string[];
}

/** The writer side of a watch: headers are sent when it is created, before the first event. */
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

/** One request. */
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
  /** What the filters keep about the request: audit ID, response headers, audit annotations, the response. */
  readonly record: RequestRecord;
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal: AbortSignal;
  /** The raw body, up to the body limit (413 RequestEntityTooLarge beyond it). */
  readBody(): Promise<Result<Buffer>>;
  /**
   * The body decoded by its Content-Type: JSON, YAML (kube-apiserver's YAML 1.1 reading) and the patch types
   * (their bodies are JSON or YAML documents too). 415 for other media types, 400 for malformed documents.
   */
  decodeBody(accepted: readonly string[]): Promise<Result<DecodedBody>>;
  /** Adds a `Warning: 299 - "<text>"` header to the response. */
  warn(text: string): void;
  /** Writes an object with a status code in the negotiated media type (JSON, YAML; `?pretty`). */
  writeObject(code: number, object: unknown): void;
  /** Writes a failure (or success) Status with its code. */
  writeStatus(status: Status): void;
  /**
   * Writes a body already encoded, with its own Content-Type and extra headers (aggregated discovery, OpenAPI
   * documents and their protobuf form, 304/301 answers with an empty body).
   */
  writeBytes(code: number, contentType: string, body: string | Uint8Array, headers?: Readonly<Record<string, string>>): void;
  /** Writes plain text (health endpoints). */
  writeText(code: number, text: string): void;
  /** Starts a watch response: status 200 and headers go out at once. */
  startWatch(): WatchStream;
  /**
   * Starts a streamed JSON body (a large list written part by part from pre-serialized items) when the negotiated
   * response is compact JSON; undefined when it is another form (YAML, pretty, ...): the caller writes an object.
   */
  startJsonStream(code: number): WatchStream | undefined;
  /**
   * Starts a response whose headers and body come from elsewhere as they are (the aggregator's proxy relays an
   * extension server's answer, watches included): the status and headers go out at once, the body is streamed.
   */
  startRelay(code: number, headers: Readonly<Record<string, string | readonly string[]>>): WatchStream;
  /** True once a response was started. */
  readonly responded: boolean;
  /**
   * Ends the request now, as kube-apiserver's timeout filter does: `status` is answered unless a response is under
   * way (that one is cut off), later writes are dropped, the signal aborts and a body read still waiting fails.
   */
  expire(status: Status): void;
}

/** A filter: does its part, then calls `next` (or answers and returns without calling it). */
export type Filter = (ctx: RequestContext, next: () => Promise<void>) => Promise<void>;
