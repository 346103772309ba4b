/**
 * autoscaling/v1 ↔ autoscaling/v2 (the storage version) HorizontalPodAutoscalers, kube's pkg/apis/autoscaling/v1
 * conversion: v1 has one CPU utilization target and its current value; everything else v2 holds (other metrics,
 * `behavior`, current metrics, conditions) travels in the v1 object's `autoscaling.alpha.<domain>/...`
 * annotations, so nothing is lost either way. The annotations carry the v2 JSON forms.
 */
import { apiVersionOf, type KubeObject, type Names } from '@svc-apiserver/api';
import { record, type ResourceConversion } from './resource-conversion.js';

type Json = Record<string, unknown>;

const cpuTarget = (n: unknown): Json => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const cpuCurrent = (n: unknown): Json => ({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: n } } });

/** The CPU utilization target of a v2 metric, if it is one. */
function cpuTargetOf(metric: unknown): number | undefined {
  const resource = record(record(metric)?.['resource']);
  const target = record(resource?.['target']);
  if (record(metric)?.['type'] !== 'Resource' || resource?.['name'] !== 'cpu' || target?.['type'] !== 'Utilization') return undefined;
  const n = target['averageUtilization'];
  return typeof n === 'number' ? n : undefined;
}

/** The current CPU utilization of a v2 current metric, if it is one. */
function cpuCurrentOf(metric: unknown): number | undefined {
  const resource = record(record(metric)?.['resource']);
  if (record(metric)?.['type'] !== 'Resource' || resource?.['name'] !== 'cpu') return undefined;
  const n = record(resource['current'])?.['averageUtilization'];
  return typeof n === 'number' ? n : undefined;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function parseList(text: string | undefined): unknown[] | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function parseRecord(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  try {
    return record(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The conversion of autoscaling/v1 HorizontalPodAutoscalers. */
export function hpaV1Conversion(names: Names): ResourceConversion {
  const storageApiVersion = apiVersionOf(names.group('autoscaling'), 'v2');
  const servedApiVersion = apiVersionOf(names.group('autoscaling'), 'v1');
  const kind = 'HorizontalPodAutoscaler';
  const key = (path: string): string => names.domain(path, 'autoscaling.alpha');
  const metricsKey = key('metrics');
  const currentKey = key('current-metrics');
  const conditionsKey = key('conditions');
  const behaviorKey = key('behavior');
  const ours = [metricsKey, currentKey, conditionsKey, behaviorKey];

  return {
    storage: { groupKey: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind },
    storageApiVersion,
    fromStorage(object) {
      const out = structuredClone(object);
      const annotations: Record<string, string> = {};
      const spec = record(out['spec']);
      if (spec !== undefined) {
        const { metrics, behavior, ...rest } = spec;
        const v1: Json = { ...rest };
        if (Array.isArray(metrics)) {
          const cpu = metrics.map(cpuTargetOf).find((n) => n !== undefined);
          if (cpu !== undefined) v1['targetCPUUtilizationPercentage'] = cpu;
          // The annotation is left out only when the one CPU target says everything.
          if (!(metrics.length === 1 && same(metrics[0], cpuTarget(cpu)))) annotations[metricsKey] = JSON.stringify(metrics);
        }
        if (behavior !== undefined) annotations[behaviorKey] = JSON.stringify(behavior);
        out['spec'] = v1;
      }
      const status = record(out['status']);
      if (status !== undefined) {
        const { currentMetrics, conditions, ...rest } = status;
        // v1's replica counts are not omitempty: a v2 status leaving out a zero count still shows it in v1.
        const v1: Json = { currentReplicas: 0, desiredReplicas: 0, ...rest };
        if (Array.isArray(currentMetrics)) {
          const cpu = currentMetrics.map(cpuCurrentOf).find((n) => n !== undefined);
          if (cpu !== undefined) v1['currentCPUUtilizationPercentage'] = cpu;
          if (!(currentMetrics.length === 1 && same(currentMetrics[0], cpuCurrent(cpu)))) annotations[currentKey] = JSON.stringify(currentMetrics);
        }
        if (conditions !== undefined) annotations[conditionsKey] = JSON.stringify(conditions);
        out['status'] = v1;
      }
      if (Object.keys(annotations).length > 0) {
        const meta = (out.metadata ??= {});
        meta.annotations = { ...(meta.annotations ?? {}), ...annotations };
      }
      return { ...out, apiVersion: servedApiVersion, kind };
    },
    toStorage(object) {
      const out = structuredClone(object);
      const all = out.metadata?.annotations ?? {};
      const spec = record(out['spec']);
      if (spec !== undefined) {
        const { targetCPUUtilizationPercentage: cpu, ...rest } = spec;
        const v2: Json = { ...rest };
        let metrics = parseList(all[metricsKey]);
        if (metrics !== undefined) {
          const at = metrics.findIndex((m) => cpuTargetOf(m) !== undefined);
          if (cpu === undefined) metrics = metrics.filter((_, i) => i !== at);
          else if (at >= 0) metrics[at] = cpuTarget(cpu);
          else metrics = [cpuTarget(cpu), ...metrics];
        } else if (cpu !== undefined) metrics = [cpuTarget(cpu)];
        if (metrics !== undefined) v2['metrics'] = metrics;
        const behavior = parseRecord(all[behaviorKey]);
        if (behavior !== undefined) v2['behavior'] = behavior;
        out['spec'] = v2;
      }
      const status = record(out['status']);
      if (status !== undefined) {
        const { currentCPUUtilizationPercentage: cpu, ...rest } = status;
        const v2: Json = { ...rest };
        let current = parseList(all[currentKey]);
        if (current !== undefined) {
          const at = current.findIndex((m) => cpuCurrentOf(m) !== undefined);
          if (cpu !== undefined && at >= 0) {
            const resource = record(record(current[at])?.['resource']) ?? {};
            current[at] = { type: 'Resource', resource: { ...resource, current: { ...(record(resource['current']) ?? {}), averageUtilization: cpu } } };
          } else if (cpu !== undefined) current = [cpuCurrent(cpu), ...current];
        } else if (cpu !== undefined) current = [cpuCurrent(cpu)];
        if (current !== undefined) v2['currentMetrics'] = current;
        const conditions = parseList(all[conditionsKey]);
        if (conditions !== undefined) v2['conditions'] = conditions;
        out['status'] = v2;
      }
      if (out.metadata?.annotations !== undefined) {
        const kept = Object.fromEntries(Object.entries(out.metadata.annotations).filter(([k]) => !ours.includes(k)));
        if (Object.keys(kept).length > 0) out.metadata.annotations = kept;
        else delete out.metadata.annotations;
      }
      return { ...out, apiVersion: storageApiVersion, kind };
    },
  };
}
