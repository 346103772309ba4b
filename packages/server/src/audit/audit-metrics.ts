/**
 * The audit metrics of kube-apiserver (k8s.io/apiserver/pkg/audit/metrics.go), declared in the server's registry:
 * events written, events by level, and events a backend failed to write or dropped.
 */
import { metricSet, type Counter } from '../metrics/metrics-registry.js';

/** The audit counters. */
export interface AuditMetrics {
  /** `apiserver_audit_event_total`: events generated and sent to the backend. */
  readonly events: Counter;
  /** `apiserver_audit_level_total{level}`: policy levels of the requests audited. */
  readonly levels: Counter;
  /** `apiserver_audit_error_total{plugin}`: events a backend failed to write or dropped. */
  readonly errors: Counter;
}

/** The audit counters of a registry (the server's by default), declared on first use. */
export const auditMetrics = metricSet((registry): AuditMetrics => ({
  events: registry.counter('apiserver_audit_event_total', 'Counter of audit events generated and sent to the audit backend.', [], 'ALPHA'),
  levels: registry.counter('apiserver_audit_level_total', 'Counter of policy levels for audit events (1 per request).', ['level'], 'ALPHA'),
  errors: registry.counter('apiserver_audit_error_total', 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', ['plugin'], 'ALPHA'),
}));
