/**
 * A RequestContext without HTTP, for handler tests: the request is plain data, the response is recorded.
 */
import { badRequest, namesFor, unsupportedMediaType, type KubeObject, type Names, type Status, type WatchEvent } from '@svc-apiserver/api';
import { anonymousUser, type UserInfo } from '../request/user-info.js';
import type { RequestContext, WatchStream } from '../http/context.js';
import type { RequestInfo } from '../request/request-info.js';
import { createRequestRecord } from '../http/request-record.js';

/** A request as a test describes it. */
export interface FakeRequest {
  readonly verb: string;
  readonly group?: string;
  readonly version?: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  readonly user?: UserInfo;
  readonly names?: Names;
  /** False: the response is not streamable JSON (as if YAML was asked for), so handlers write objects. */
  readonly jsonStream?: boolean;
  /** A watch client that reads nothing: every write reports a full buffer and `drain` never comes. */
  readonly slowWatch?: boolean;
}

/** What the handler answered. */
export interface FakeResponse {
  code?: number;
  body?: unknown;
  readonly warnings: string[];
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

/** Builds a context and the record of its response. */
export function fakeContext(req: FakeRequest): { ctx: RequestContext; response: FakeResponse } {
  const response: FakeResponse = { warnings: [], events: [], watchEnded: false };
  const query = new URLSearchParams(req.query ?? {});
  const info: RequestInfo = {
    isResourceRequest: true, path: '', verb: req.verb, apiPrefix: req.group ? 'apis' : 'api', apiGroup: req.group ?? '',
    apiVersion: req.version ?? 'v1', namespace: req.namespace ?? '', resource: req.resource, subresource: req.subresource ?? '',
    name: req.name ?? '', parts: [],
  };
  let responded = false;
  const raw = req.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(req.body));
  const ctx: RequestContext = {
    method: methods[req.verb] ?? 'GET',
    path: '',
    query,
    headers: req.contentType ? { 'content-type': req.contentType } : {},
    names: req.names ?? namesFor('svc'),
    info,
    user: req.user ?? anonymousUser,
    record: createRequestRecord('127.0.0.1'),
    signal: req.signal ?? new AbortController().signal,
    clientCertificates: [],
    async readBody() {
      return { ok: true, value: raw };
    },
    async decodeBody(accepted) {
      const mediaType = req.contentType ?? 'application/json';
      if (!accepted.includes(mediaType)) return { ok: false, error: unsupportedMediaType(accepted) };
      if (req.body === undefined) return { ok: false, error: badRequest('the request body is empty') };
      return { ok: true, value: { mediaType, object: structuredClone(req.body) as KubeObject } };
    },
    warn(text) {
      response.warnings.push(text);
    },
    writeObject(code, object) {
      responded = true;
      response.code = code;
      response.body = structuredClone(object);
    },
    writeStatus(status: Status) {
      responded = true;
      response.code = status.code;
      response.body = structuredClone(status);
    },
    writeBytes(code, _contentType, body) {
      responded = true;
      response.code = code;
      response.body = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    },
    writeText(code, text) {
      responded = true;
      response.code = code;
      response.body = text;
    },
    startWatch(): WatchStream {
      responded = true;
      response.code = 200;
      let partial = '';
      return {
        send(event) {
          response.events.push(structuredClone(event));
          response.onEvent?.();
          return true;
        },
        write(chunk) {
          // Serialized events, one JSON document per line.
          partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
          let nl: number;
          while ((nl = partial.indexOf('\n')) >= 0) {
            const line = partial.slice(0, nl);
            partial = partial.slice(nl + 1);
            if (line.trim() !== '') response.events.push(JSON.parse(line) as WatchEvent);
            response.onEvent?.();
          }
          return req.slowWatch !== true;
        },
        drain: () => (req.slowWatch === true ? new Promise<void>(() => {}) : Promise.resolve()),
        end() {
          response.watchEnded = true;
        },
        abort() {
          response.watchEnded = true;
          response.watchAborted = true;
        },
        get closed() {
          return response.watchEnded;
        },
      };
    },
    startRelay(code): WatchStream {
      responded = true;
      response.code = code;
      let ended = false;
      return {
        send: () => false,
        write(chunk) {
          response.body = `${typeof response.body === 'string' ? response.body : ''}${typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')}`;
          return true;
        },
        drain: () => Promise.resolve(),
        end() {
          ended = true;
        },
        abort() {
          ended = true;
          response.watchAborted = true;
        },
        get closed() {
          return ended;
        },
      };
    },
    startJsonStream(code): WatchStream | undefined {
      if (req.jsonStream === false) return undefined;
      responded = true;
      response.code = code;
      let text = '';
      let ended = false;
      return {
        send: () => false,
        write(chunk) {
          text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
          return true;
        },
        drain: async () => {},
        end() {
          ended = true;
          response.body = JSON.parse(text) as unknown;
        },
        abort() {
          ended = true;
        },
        get closed() {
          return ended;
        },
      };
    },
    get responded() {
      return responded;
    },
    expire(status: Status) {
      if (!responded) ctx.writeStatus(status);
    },
  };
  return { ctx, response };
}
