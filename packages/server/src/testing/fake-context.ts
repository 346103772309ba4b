/**
 * A RequestContext without HTTP, for handler and filter tests. Only the transport is fake: the body is bytes the
 * test gives and the response is captured as bytes, so the body is decoded (JSON, YAML, protobuf, duplicate
 * fields) and the response negotiated and encoded (JSON, YAML, protobuf, Table, `?pretty`, warnings) by the same
 * decoder and writer the server runs. The captured response is then read back as a client reads it.
 */
import { namesFor, ok, type Names, type Result, type Status, type WatchEvent } from '@svc-apiserver/api';
import { decodeBody as decodeClientBody, parseWarnings } from '@svc-apiserver/client';
import { anonymousUser, type UserInfo } from '../request/user-info.js';
import type { RequestContext, ResponseHeaders, Transport } from '../http/context.js';
import type { RequestInfo } from '../request/request-info.js';
import { createRequestRecord } from '../http/request-record.js';
import { responseEncoding } from '../http/encode.js';
import { parseMediaType } from '../http/media-type.js';
import { protobufCodec } from '@svc-apiserver/protobuf/codec';

/** A request as a test describes it. */
export interface FakeRequest {
  readonly verb: string;
  readonly group?: string;
  readonly version?: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  /** The request info as the request-info filter would set it, instead of one made from the fields above. */
  readonly info?: RequestInfo;
  readonly query?: Record<string, string>;
  /** The body: bytes or text as sent (YAML, protobuf), or a value sent as its JSON text. */
  readonly body?: unknown;
  readonly contentType?: string;
  /** The Accept header (JSON when absent). */
  readonly accept?: string;
  /** Other request headers (names in lower case). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  readonly user?: UserInfo;
  readonly names?: Names;
  /** A watch client that reads nothing: every write reports a full buffer and `drain` never comes. */
  readonly slowWatch?: boolean;
}

/** What the handler answered, read back from the captured bytes. */
export interface FakeResponse {
  code?: number;
  /**
   * The body as a client reads it: the object of a JSON, YAML or protobuf body, the text of any other; undefined
   * until the response ended (and for a watch, whose events are in `events`).
   */
  body?: unknown;
  /** The response headers as the writer made them. */
  headers?: ResponseHeaders;
  /** The body's bytes as written. */
  bytes: Buffer;
  /** The texts of the `Warning` headers. */
  readonly warnings: string[];
  /** The events of a JSON watch, as they were written. */
  readonly events: WatchEvent[];
  watchEnded: boolean;
  /** Set when the watch response was dropped rather than ended (its client was not reading). */
  watchAborted?: boolean;
  /** Called after every watch event (tests wait on it). */
  onEvent?: () => void;
}

const methods: Record<string, string> = {
  get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE',
};

/** The bytes a test's body stands for. */
function bodyBytes(body: unknown): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}

/** A response body read as a client reads it: by its Content-Type, the text when it is none the client decodes. */
function readBack(bytes: Buffer, contentType: string | undefined, names: Names): unknown {
  const type = contentType === undefined ? '' : parseMediaType(contentType)?.type ?? '';
  if (type === responseEncoding(names).protobufMediaType) {
    const decoded = protobufCodec(names).decode(bytes);
    return decoded.ok ? decoded.value : bytes;
  }
  if (bytes.length === 0 && type === '') return undefined;
  const decoded = decodeClientBody(bytes, contentType);
  return decoded.ok ? decoded.value : bytes.toString('utf8');
}

/** The transport of a fake request: the body is the test's bytes, the response is captured. */
function capturingTransport(req: FakeRequest, raw: Buffer, response: FakeResponse, names: Names): Transport {
  let started = false;
  let ended = false;
  let expired = false;
  const chunks: Buffer[] = [];
  /** JSON watch lines not yet complete. */
  let partial = '';
  /** A watch answered with a stream of events (a refused one is answered with a Status). */
  let watchStream = false;
  let jsonLines = false;
  return {
    readBody: (): Promise<Result<Buffer>> => Promise.resolve(ok(raw)),
    onAbort(listener) {
      // The request's signal, when the test gave one, is the only way a fake request aborts.
      const signal = req.signal;
      if (signal?.aborted === true) listener();
      else signal?.addEventListener('abort', listener, { once: true });
    },
    get responded() {
      return started || expired;
    },
    get closed() {
      return ended || expired;
    },
    writeHead(code, headers, streamed) {
      started = true;
      response.code = code;
      response.headers = headers;
      response.warnings.push(...parseWarnings(headers['Warning']));
      const type = headers['Content-Type'];
      watchStream = streamed && req.verb === 'watch';
      jsonLines = watchStream && typeof type === 'string' && parseMediaType(type)?.type === 'application/json';
    },
    write(chunk) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      chunks.push(bytes);
      if (jsonLines) {
        partial += bytes.toString('utf8');
        let nl: number;
        while ((nl = partial.indexOf('\n')) >= 0) {
          const line = partial.slice(0, nl);
          partial = partial.slice(nl + 1);
          if (line.trim() !== '') response.events.push(JSON.parse(line) as WatchEvent);
          response.onEvent?.();
        }
      }
      return req.slowWatch !== true;
    },
    end(last) {
      if (ended) return;
      ended = true;
      if (last !== undefined) chunks.push(Buffer.from(last));
      response.bytes = Buffer.concat(chunks);
      if (watchStream) {
        response.watchEnded = true;
        return;
      }
      const type = response.headers?.['Content-Type'];
      response.body = readBack(response.bytes, typeof type === 'string' ? type : undefined, names);
    },
    drain: () => (req.slowWatch === true ? new Promise<void>(() => {}) : Promise.resolve()),
    drop() {
      // A reading client took the whole response once it ended; a slow one took nothing.
      if (ended && req.slowWatch !== true) return;
      ended = true;
      response.watchEnded = true;
      response.watchAborted = true;
    },
    expire(_status: Status) {
      expired = true;
    },
  };
}

/** Builds a context and the record of its response. */
export function fakeContext(req: FakeRequest): { ctx: RequestContext; response: FakeResponse } {
  const response: FakeResponse = { bytes: Buffer.alloc(0), warnings: [], events: [], watchEnded: false };
  const names = req.names ?? namesFor('svc');
  const info: RequestInfo = req.info ?? {
    isResourceRequest: true, path: '', verb: req.verb, apiPrefix: req.group ? 'apis' : 'api', apiGroup: req.group ?? '',
    apiVersion: req.version ?? 'v1', namespace: req.namespace ?? '', resource: req.resource, subresource: req.subresource ?? '',
    name: req.name ?? '', parts: [],
  };
  const headers: Record<string, string> = { ...req.headers };
  if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  if (req.accept !== undefined) headers['accept'] = req.accept;
  const ctx: RequestContext = {
    method: methods[req.verb] ?? 'GET',
    path: info.path,
    query: new URLSearchParams(req.query ?? {}),
    headers,
    names,
    info,
    user: req.user ?? anonymousUser,
    record: createRequestRecord('127.0.0.1'),
    signal: req.signal ?? new AbortController().signal,
    clientCertificates: [],
    transport: capturingTransport(req, bodyBytes(req.body), response, names),
  };
  return { ctx, response };
}
