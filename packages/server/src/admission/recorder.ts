/**
 * Recorders of what admission reports beside its answer: warnings sent to the client and the audit annotations
 * of the request (kube keeps them on the request's audit event; a key keeps its first value).
 */
import type { LatencyTrackers } from '../request/latency-trackers.js';
import type { AdmissionRecorder, AuditAnnotationLevel } from './plugin.js';

/** An audit annotation with the level it is kept from. */
export interface RecordedAnnotation {
  readonly value: string;
  readonly level: AuditAnnotationLevel;
}

/** A recorder that keeps its annotations for the request's audit event. */
export interface RequestRecorder extends AdmissionRecorder {
  /** The annotations recorded, by key. */
  readonly annotations: ReadonlyMap<string, RecordedAnnotation>;
}

/**
 * A recorder sending warnings to `warn` and keeping annotations, in `annotations` when given (the request's
 * record, whence they reach the audit event); webhooks add their time to `latency` when given.
 */
export function requestRecorder(
  warn: (text: string) => void, annotations: Map<string, RecordedAnnotation> = new Map(), latency?: LatencyTrackers,
): RequestRecorder {
  return {
    annotations,
    warn,
    ...(latency === undefined ? {} : { latency }),
    annotate(key, value, level) {
      if (!annotations.has(key)) annotations.set(key, { value, level });
    },
  };
}
