/**
 * The fuzzer's judgement of one answer. A case passes when the server answered in time, every error answer is a
 * Status (JSON, YAML or protobuf, as negotiated; kube's plain `404 page not found` for an unknown non-API path is
 * the one exception, and HEAD answers have no body), no error message shows JavaScript internals, and no answer is
 * a 5xx except those kube-apiserver 1.27 gives by design:
 *
 * - 500 `failed to create typed patch object (...)`: server-side apply of a body that does not fit the schema
 *   (structured-merge-diff's typed conversion error, which kube answers 500 without a reason);
 * - 504 `Timeout: request did not complete within the allotted timeout`: a request past its deadline (the fuzzer
 *   sends stalled bodies and short `timeout` parameters on purpose);
 * - 504 `Timeout: Too large resource version`: a read at a resourceVersion the store has not reached;
 * - 500 `Internal error occurred: ...` for an impersonation request that names groups or extras without a user
 *   (kube's impersonation filter answers these with an internal error);
 * - 503 from the proxy subresources when there is nothing to proxy to (`no endpoints available for service "x"`,
 *   and the node proxy of a server that runs no node agent), as kube's proxy answers an unreachable backend.
 *
 * A case that knows the only codes a correct server gives (a request kube-apiserver does not route, such as a
 * deletecollection on the all-namespaces path of a namespaced resource) fails on any other, 401, 403 and 429 aside.
 *
 * The only ends without an answer allowed are HTTP/2's own refusals: header blocks past what the server advertised
 * (a single field over nghttp2's 64 KiB, a list over 1 MiB) and malformed requests (connection-specific fields,
 * values a field may not hold), which the protocol resets instead of answering.
 */
import { parse as parseYaml } from 'yaml';
import type { FuzzCase } from './fuzz-cases.js';
import { http2Refusable, type FuzzOutcome } from './fuzz-transport.js';

/** Why a case failed. */
export type ViolationKind = 'hang' | 'closed' | 'unexpected-5xx' | 'not-a-status' | 'internals' | 'crash' | 'wrong-code';

/** Codes any request may get whatever it asks: its credentials, its authorization, the server's load. */
const askerCodes: ReadonlySet<number> = new Set([401, 403, 429]);

/** A failed case. */
export interface Violation {
  readonly kind: ViolationKind;
  readonly index: number;
  readonly category: string;
  readonly detail: string;
}

/** 5xx answers kube gives by design (see the module comment). */
const designed5xx: readonly { readonly code: number; readonly message: RegExp }[] = [
  { code: 500, message: /^failed to create typed patch object \(/ },
  { code: 504, message: /^Timeout: request did not complete within the allotted timeout$/ },
  { code: 504, message: /^Timeout: Too large resource version/ },
  { code: 500, message: /^Internal error occurred: requested .* without impersonating a user$/ },
  { code: 503, message: /^no endpoints available for service "[^"]*"$/ },
  { code: 503, message: /^unable to reach the node agent on node "[^"]*" for proxying/ },
];

/** Words only JavaScript says. */
const internals = /Maximum call stack|RangeError|TypeError|ReferenceError|SyntaxError: Unexpected end|Cannot read propert|is not a function|undefined is not|\bat [\w.<>]+ \(.*\.[jt]s:\d+|\[object Object\]/;

interface StatusLike {
  readonly kind?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly reason?: unknown;
}

/** Decodes a protobuf body into its object (the server's codec), or undefined. */
export type ProtobufDecoder = (bytes: Uint8Array) => unknown;

/** The Status in an error answer's body, in whichever encoding it came; undefined when there is none. */
function statusOf(headers: Record<string, string | string[]>, body: Buffer, protobuf: ProtobufDecoder): StatusLike | undefined {
  const type = String(headers['content-type'] ?? '');
  if (type.includes('protobuf')) {
    const decoded = protobuf(body);
    return typeof decoded === 'object' && decoded !== null ? (decoded as StatusLike) : undefined;
  }
  const text = body.toString('utf8');
  try {
    const parsed = (type.includes('yaml') ? parseYaml(text) : JSON.parse(text)) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusLike) : undefined;
  } catch {
    return undefined;
  }
}

/** Judges one case; undefined when it passed. */
export function judge(c: FuzzCase, outcome: FuzzOutcome, protobuf: ProtobufDecoder): Violation | undefined {
  const violation = (kind: ViolationKind, detail: string): Violation => ({ kind, index: c.index, category: c.category, detail });
  const what = `${c.request.protocol} ${c.request.method} ${c.request.target.slice(0, 160)}`;
  switch (outcome.kind) {
    case 'unsendable':
      return undefined;
    case 'hang':
      return violation('hang', `${what}: no answer after ${Math.round(outcome.ms)} ms`);
    case 'closed':
      if (c.request.protocol === 'http2' && http2Refusable(c.request)) return undefined;
      return violation('closed', `${what}: ${outcome.why}`);
    case 'answer':
      break;
  }
  const { status, headers, body } = outcome;
  if (c.expect !== undefined && !c.expect.includes(status) && !askerCodes.has(status)) {
    return violation('wrong-code', `${what}: ${status}, expected ${c.expect.join(' or ')}`);
  }
  if (status < 400) return undefined;
  if (c.request.method === 'HEAD') return undefined;
  const text = body.toString('utf8');
  if (status === 404 && text === '404 page not found\n') {
    let path = c.request.target;
    try {
      path = new URL(c.request.target, 'https://x').pathname;
    } catch {
      // the raw target
    }
    return /^\/apis?(\/|$)/.test(path) ? violation('not-a-status', `${what}: plain 404 under the API`) : undefined;
  }
  const s = statusOf(headers, body, protobuf);
  if (s === undefined || s.kind !== 'Status') {
    return violation('not-a-status', `${what}: ${status} ${String(headers['content-type'] ?? '')} ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (s.code !== undefined && s.code !== status) return violation('not-a-status', `${what}: HTTP ${status} but Status code ${String(s.code)}`);
  const message = typeof s.message === 'string' ? s.message : '';
  if (internals.test(message)) return violation('internals', `${what}: ${status} ${JSON.stringify(message.slice(0, 300))}`);
  if (status >= 500 && !designed5xx.some((d) => d.code === status && d.message.test(message))) {
    return violation('unexpected-5xx', `${what}: ${status} ${String(s.reason ?? '')} ${JSON.stringify(message.slice(0, 300))}`);
  }
  return undefined;
}
