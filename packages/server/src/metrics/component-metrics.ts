/**
 * The metrics every Kubernetes component serves beside its own (k8s.io/component-base): the feature gates'
 * `kubernetes_feature_enabled{name, stage}` (1 on, 0 off; GA gates with an empty stage) and the process metrics.
 *
 * The process metrics are prom-client's default collectors: `process_*` with the names and meanings of the
 * Prometheus process collector kube-apiserver registers (CPU seconds, resident and virtual memory, open and maximum
 * file descriptors, start time), and Node's own runtime figures under their `nodejs_*` names (event loop lag, heap
 * spaces, garbage collection, handles). Go's `go_*` runtime metrics have no honest Node equivalent and are not served.
 */
import { collectDefaultMetrics } from 'prom-client';
import { serverMetrics, type MetricsRegistry } from './metrics-registry.js';

/** One gate as `kubernetes_feature_enabled` reports it. */
export interface FeatureState {
  readonly name: string;
  /** ALPHA, BETA, DEPRECATED, or "" for a GA gate (kube's prerelease string). */
  readonly stage: string;
  readonly enabled: boolean;
}

/** Records every gate's state (featureGate.AddMetrics, RecordFeatureInfo). */
export function recordFeatureStates(states: readonly FeatureState[], registry: MetricsRegistry = serverMetrics): void {
  const gauge = registry.gauge('kubernetes_feature_enabled', 'This metric records the data about the stage and enablement of a k8s feature.',
    ['name', 'stage'], 'ALPHA');
  for (const s of states) gauge.set({ name: s.name, stage: s.stage }, s.enabled ? 1 : 0);
}

/** Registers the process and runtime metrics in `registry`, once. */
export function registerProcessMetrics(registry: MetricsRegistry = serverMetrics): void {
  registry.raw('process', (prom) => collectDefaultMetrics({ register: prom }));
}
