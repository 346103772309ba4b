/**
 * HorizontalPodAutoscalers: Name, Reference (`Kind/name`), Targets (`current/target` of up to two metrics),
 * MinPods (`<unset>`), MaxPods, Replicas, Age (printHorizontalPodAutoscaler, 1.27). kube-apiserver prints from the
 * internal object, so an autoscaling/v1 object shows its CPU target as a Resource metric, as v2 does.
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, num, quantity, since, str } from '../format.js';

const v2 = 'io.k8s.api.autoscaling.v2';
const maxShown = 2;

type Json = Record<string, unknown>;

/** The spec and status metrics, autoscaling/v1's CPU utilization fields taken as one Resource metric. */
function metricsOf(hpa: Json): { specs: unknown[]; statuses: unknown[] } {
  if (get(hpa, 'spec', 'metrics') === undefined && typeof get(hpa, 'spec', 'targetCPUUtilizationPercentage') === 'number') {
    const current = get(hpa, 'status', 'currentCPUUtilizationPercentage');
    return {
      specs: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: get(hpa, 'spec', 'targetCPUUtilizationPercentage') } } }],
      statuses: typeof current === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] : [],
    };
  }
  return { specs: list(hpa, 'spec', 'metrics'), statuses: list(hpa, 'status', 'currentMetrics') };
}

/** `current/target` of a metric with an average-value or a value target (Object, External). */
function valueOrAverage(spec: unknown, status: unknown, source: string): string {
  const avg = get(spec, source, 'target', 'averageValue');
  if (avg !== undefined) {
    const cur = get(status, source, 'current', 'averageValue');
    return `${cur !== undefined ? quantity(cur) : '<unknown>'}/${quantity(avg)} (avg)`;
  }
  const cur = get(status, source) !== undefined ? quantity(get(status, source, 'current', 'value')) : '<unknown>';
  return `${cur}/${quantity(get(spec, source, 'target', 'value'))}`;
}

/** `current/target` of a Resource or ContainerResource metric (utilization in percent, or an average value). */
function resource(spec: unknown, status: unknown, source: string): string {
  const avg = get(spec, source, 'target', 'averageValue');
  if (avg !== undefined) {
    const cur = get(status, source) !== undefined ? quantity(get(status, source, 'current', 'averageValue')) : '<unknown>';
    return `${cur}/${quantity(avg)}`;
  }
  const curPct = get(status, source, 'current', 'averageUtilization');
  const targetPct = get(spec, source, 'target', 'averageUtilization');
  return `${typeof curPct === 'number' ? `${curPct}%` : '<unknown>'}/${typeof targetPct === 'number' ? `${targetPct}%` : '<auto>'}`;
}

/** formatHPAMetrics: statuses pair with specs by position. */
export function formatHpaMetrics(specs: unknown[], statuses: unknown[]): string {
  if (specs.length === 0) return '<none>';
  const out = specs.map((spec, i) => {
    const status = statuses[i];
    switch (str(spec, 'type')) {
      case 'External':
        return valueOrAverage(spec, status, 'external');
      case 'Object':
        return valueOrAverage(spec, status, 'object');
      case 'Pods': {
        const cur = get(status, 'pods') !== undefined ? quantity(get(status, 'pods', 'current', 'averageValue')) : '<unknown>';
        return `${cur}/${quantity(get(spec, 'pods', 'target', 'averageValue'))}`;
      }
      case 'Resource':
        return resource(spec, status, 'resource');
      case 'ContainerResource':
        return resource(spec, status, 'containerResource');
      default:
        return '<unknown type>';
    }
  });
  const text = out.slice(0, maxShown).join(', ');
  return out.length > maxShown ? `${text} + ${out.length - maxShown} more...` : text;
}

/** The horizontalpodautoscalers printer (autoscaling v1 and v2). */
export const horizontalPodAutoscalerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Reference', `${v2}.HorizontalPodAutoscalerSpec`, 'scaleTargetRef'),
    docColumn('Targets', `${v2}.HorizontalPodAutoscalerSpec`, 'metrics'),
    docColumn('MinPods', `${v2}.HorizontalPodAutoscalerSpec`, 'minReplicas'),
    docColumn('MaxPods', `${v2}.HorizontalPodAutoscalerSpec`, 'maxReplicas'),
    docColumn('Replicas', `${v2}.HorizontalPodAutoscalerStatus`, 'currentReplicas'),
    ageColumn,
  ],
  cells(hpa, ctx) {
    const { specs, statuses } = metricsOf(hpa);
    const min = get(hpa, 'spec', 'minReplicas');
    return [
      str(hpa, 'metadata', 'name'), `${str(hpa, 'spec', 'scaleTargetRef', 'kind')}/${str(hpa, 'spec', 'scaleTargetRef', 'name')}`,
      formatHpaMetrics(specs, statuses), typeof min === 'number' ? String(min) : '<unset>', num(hpa, 'spec', 'maxReplicas'),
      num(hpa, 'status', 'currentReplicas'), since(get(hpa, 'metadata', 'creationTimestamp'), ctx.now),
    ];
  },
};
