/**
 * What the filters keep about one request beside its info and user, for audit and flow control: the audit ID, the
 * headers every response of the request carries (`Audit-Id`, `X-Kubernetes-PF-*`), the audit annotations recorded
 * along the way (authorization's decision, admission's, the deprecation notice), the decoded request object, the
 * warnings the response will carry and what the response turned out to be. Plain data, filled by the filters, the
 * body decoder and the response writer.
 */
import type { RecordedAnnotation } from '../admission/recorder.js';
import { createLatencyTrackers, type LatencyTrackers } from '../request/latency-trackers.js';
import type { WarningRecorder } from './warnings.js';

/** The record of one request. */
export interface RequestRecord {
  /** The request's audit ID (set by the audit-ID filter). */
  auditID: string;
  /** The client's address (the connection's remote address). */
  readonly remoteAddress: string;
  /** Headers added to every response of this request. */
  readonly responseHeaders: Record<string, string>;
  /** The warnings of the response (`Warning: 299` headers), made at the first warning. */
  warnings: WarningRecorder | undefined;
  /** Audit annotations by key; a key keeps its first value (kube's AddAuditAnnotation). */
  readonly annotations: Map<string, RecordedAnnotation>;
  /** The request body as decoded, once a handler decoded it. */
  requestObject: unknown;
  /** The status code, once the response started. */
  responseCode: number | undefined;
  /** The object (or Status) written as the whole response body. */
  responseObject: unknown;
  /** Told once when the response headers go out (audit's ResponseStarted of long-running requests). */
  onResponseStart: ((code: number) => void) | undefined;
  /** Set once the audit filter took the request (requests refused before it are audited as failed authentications). */
  audited: boolean;
  /** When the request arrived (performance.now()): its latency is counted from here, as kube's received timestamp. */
  readonly receivedAt: number;
  /** The time it waited on webhooks and flow control queues, which its SLI latency leaves out. */
  readonly latency: LatencyTrackers;
  /** The bytes of the response body written so far (the response size metric of reads). */
  responseBytes: number;
}

/** A fresh record of a request that arrived at `receivedAt` (performance.now(); default now). */
export function createRequestRecord(remoteAddress: string, receivedAt = performance.now()): RequestRecord {
  return {
    auditID: '',
    remoteAddress,
    responseHeaders: {},
    warnings: undefined,
    annotations: new Map(),
    requestObject: undefined,
    responseCode: undefined,
    responseObject: undefined,
    onResponseStart: undefined,
    audited: false,
    receivedAt,
    latency: createLatencyTrackers(),
    responseBytes: 0,
  };
}

/** Records an audit annotation; a key already recorded keeps its value. */
export function addAuditAnnotation(record: RequestRecord, key: string, value: string, level: RecordedAnnotation['level'] = 'Metadata'): void {
  if (!record.annotations.has(key)) record.annotations.set(key, { value, level });
}
