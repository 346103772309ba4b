/**
 * The admission metrics of kube-apiserver (k8s.io/apiserver/pkg/admission/metrics), with kube's names, labels,
 * buckets and stability classes: the duration of each phase (`step`), of each built-in plugin (`controller`) and of
 * each webhook call, and the webhook rejections by cause.
 */
import { serverMetrics, type Counter, type Histogram, type MetricsRegistry } from '../metrics/metrics-registry.js';
import type { AdmissionOperation } from '../registry/admission-interface.js';

/** A phase as the step and controller metrics name it. */
export type StepType = 'admit' | 'validate';

/** A webhook kind as the webhook metrics name it. */
export type WebhookType = 'admit' | 'validating';

/**
 * Why a webhook rejected a request (document 3 §Events): `calling_webhook_error` (the call failed or timed out
 * under failurePolicy Fail), `no_error` (the webhook answered allowed false), `apiserver_internal_error` (the
 * answer could not be applied).
 */
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error';

/** The admission metrics of one metrics registry. */
export interface AdmissionMetrics {
  readonly step: Histogram;
  readonly controller: Histogram;
  readonly webhook: Histogram;
  readonly webhookRejection: Counter;
  /** One phase of the whole chain. */
  observeStep(type: StepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
  /** One built-in plugin's phase. */
  observeController(name: string, type: StepType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
  /** The series of one plugin, phase, operation and outcome, to observe through without finding it again (the chain's). */
  controllerSeries(name: string, type: StepType, operation: AdmissionOperation, rejected: boolean): { observe(seconds: number): void };
  /** One webhook call. */
  observeWebhook(name: string, type: WebhookType, operation: AdmissionOperation, rejected: boolean, seconds: number): void;
  /** One webhook rejection; codes above 600 count as 600, as kube truncates them. */
  observeWebhookRejection(name: string, type: WebhookType, operation: AdmissionOperation, errorType: WebhookRejectionErrorType, code: number): void;
}

/** Buckets of the step and controller histograms (kube's). */
const stepBuckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
/** Buckets of the webhook histogram: webhooks may take up to their 30 s timeout. */
const webhookBuckets = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
/** The largest rejection code kept as is. */
const maxRejectionCode = 600;

/** Declares the admission metrics in `metrics`. */
export function admissionMetrics(metrics: MetricsRegistry = serverMetrics): AdmissionMetrics {
  const step = metrics.histogram('apiserver_admission_step_admission_duration_seconds',
    'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    ['type', 'operation', 'rejected'], stepBuckets, 'STABLE');
  const controller = metrics.histogram('apiserver_admission_controller_admission_duration_seconds',
    'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    ['name', 'type', 'operation', 'rejected'], stepBuckets, 'STABLE');
  const webhook = metrics.histogram('apiserver_admission_webhook_admission_duration_seconds',
    'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    ['name', 'type', 'operation', 'rejected'], webhookBuckets, 'STABLE');
  const webhookRejection = metrics.counter('apiserver_admission_webhook_rejection_count',
    'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    ['name', 'type', 'operation', 'error_type', 'rejection_code'], 'ALPHA');
  return {
    step, controller, webhook, webhookRejection,
    observeStep: (type, operation, rejected, seconds) => step.observe({ type, operation, rejected: String(rejected) }, seconds),
    observeController: (name, type, operation, rejected, seconds) =>
      controller.observe({ name, type, operation, rejected: String(rejected) }, seconds),
    controllerSeries: (name, type, operation, rejected) => controller.with({ name, type, operation, rejected: String(rejected) }),
    observeWebhook: (name, type, operation, rejected, seconds) =>
      webhook.observe({ name, type, operation, rejected: String(rejected) }, seconds),
    observeWebhookRejection: (name, type, operation, errorType, code) => webhookRejection.inc({
      name, type, operation, error_type: errorType, rejection_code: String(Math.min(code, maxRejectionCode)),
    }),
  };
}
