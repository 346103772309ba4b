/**
 * Audit events for the audit tests: one made-up event per call, numbered in its auditID.
 */
import type { AuditEvent } from '../audit/event.js';

/** The `n`th test event. */
export function testEvent(n: number): AuditEvent {
  return {
    kind: 'Event', apiVersion: 'audit.svc.io/v1', level: 'Metadata', auditID: `id-${n}`, stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/ns/configmaps/c${n}`, verb: 'get', user: { username: 'alice', groups: ['system:authenticated'] },
    sourceIPs: ['127.0.0.1'], userAgent: 'test', objectRef: { resource: 'configmaps', namespace: 'ns', name: `c${n}`, apiGroup: '', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: '2024-05-01T10:00:00.000000Z', stageTimestamp: '2024-05-01T10:00:00.001000Z',
  };
}
