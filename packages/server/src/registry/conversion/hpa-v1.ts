/**
 * autoscaling/v1 ↔ autoscaling/v2 (the storage version) HorizontalPodAutoscalers, as kube 1.27's
 * pkg/apis/autoscaling/v1 conversion does it: v1 has one CPU utilization target and its current value; the rest
 * travels in the v1 object's round-trip annotations (`autoscaling.alpha.<domain>/...`):
 *
 * - `metrics`: every metric but CPU utilization targets, in autoscaling/v1's own MetricSpec shape
 *   (`resource: {name, targetAverageUtilization}`, `pods: {metricName, targetAverageValue}`, ...);
 * - `current-metrics`: every current metric, whenever there is one, in v1's MetricStatus shape;
 * - `behavior`: the scaling behavior as kube marshals its internal type (Go field names: `ScaleUp`, `Policies`, ...);
 * - `conditions`: the status conditions.
 *
 * From v1, the CPU target is appended after the annotation's metrics, an HPA with neither gets the 80% CPU target,
 * annotations that do not decode are ignored (keys match case-insensitively, as Go's decoder matches them), and the
 * round-trip annotations are never stored. Objects are stored with the v2 defaults applied, which kube applies when
 * it reads them back.
 */
import { apiVersionOf, type KubeObject, type Names } from '@svc-apiserver/api';
import { cpuUtilizationMetric, defaultCpuUtilization, defaultHpaSpec } from '../resources/hpa-validation.js';
import { record, type ResourceConversion } from './resource-conversion.js';

type Json = Record<string, unknown>;

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** `from` without its unset fields, in the order given (Go's omitempty on pointers and slices). */
function compact(from: Json): Json {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => isSet(v)));
}

/** A required (non-pointer) quantity: Go marshals the zero quantity as "0". */
const quantity = (v: unknown): unknown => (isSet(v) ? v : '0');

/** A v1 CrossVersionObjectReference (apiVersion omitempty). */
function reference(ref: unknown): Json {
  const r = record(ref) ?? {};
  return { kind: r['kind'] ?? '', name: r['name'] ?? '', ...(r['apiVersion'] ? { apiVersion: r['apiVersion'] } : {}) };
}

/** Go's encoding/json field lookup: the exact key, else one equal ignoring case. */
function field(object: Json, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  const key = Object.keys(object).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : object[key];
}

/** A decoded annotation's object at `name` (case-insensitive), or undefined. */
function sub(object: Json, name: string): Json | undefined {
  return record(field(object, name));
}

/** The v2 MetricSpec of a v1 one (Convert_v1_MetricSpec_To_autoscaling_MetricSpec). */
function metricFromV1(m: Json): Json {
  const out: Json = { type: field(m, 'type') ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    out['object'] = compact({
      describedObject: reference(lowerKeys(sub(object, 'target'))),
      metric: compact({ name: field(object, 'metricName') ?? '', selector: field(object, 'selector') }),
      target: compact({ type: isSet(field(object, 'averageValue')) ? 'AverageValue' : 'Value', value: quantity(field(object, 'targetValue')), averageValue: field(object, 'averageValue') }),
    });
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    out['pods'] = {
      metric: compact({ name: field(pods, 'metricName') ?? '', selector: field(pods, 'selector') }),
      target: { type: 'AverageValue', averageValue: quantity(field(pods, 'targetAverageValue')) },
    };
  }
  for (const kind of ['resource', 'containerResource']) {
    const source = sub(m, kind);
    if (source === undefined) continue;
    const utilization = field(source, 'targetAverageUtilization');
    out[kind] = compact({
      name: field(source, 'name') ?? '',
      target: compact({ type: isSet(utilization) ? 'Utilization' : 'AverageValue', averageUtilization: utilization, averageValue: field(source, 'targetAverageValue') }),
      container: kind === 'containerResource' ? field(source, 'container') ?? '' : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    const value = field(external, 'targetValue');
    out['external'] = {
      metric: compact({ name: field(external, 'metricName') ?? '', selector: field(external, 'metricSelector') }),
      target: compact({ type: isSet(value) ? 'Value' : 'AverageValue', value, averageValue: field(external, 'targetAverageValue') }),
    };
  }
  return out;
}

/** The v1 MetricSpec of a v2 one (Convert_autoscaling_MetricSpec_To_v1_MetricSpec), in v1's field order. */
function metricToV1(m: Json): Json {
  const out: Json = { type: m['type'] ?? '' };
  const object = record(m['object']);
  if (object !== undefined) {
    const target = record(object['target']) ?? {};
    const metric = record(object['metric']) ?? {};
    out['object'] = compact({
      target: reference(object['describedObject']), metricName: metric['name'] ?? '', targetValue: quantity(target['value']),
      selector: metric['selector'], averageValue: target['averageValue'],
    });
  }
  const pods = record(m['pods']);
  if (pods !== undefined) {
    const metric = record(pods['metric']) ?? {};
    out['pods'] = compact({ metricName: metric['name'] ?? '', targetAverageValue: quantity(record(pods['target'])?.['averageValue']), selector: metric['selector'] });
  }
  for (const kind of ['resource', 'containerResource']) {
    const source = record(m[kind]);
    if (source === undefined) continue;
    const target = record(source['target']) ?? {};
    out[kind] = compact({
      name: source['name'] ?? '', targetAverageUtilization: target['averageUtilization'], targetAverageValue: target['averageValue'],
      container: kind === 'containerResource' ? source['container'] ?? '' : undefined,
    });
  }
  const external = record(m['external']);
  if (external !== undefined) {
    const target = record(external['target']) ?? {};
    const metric = record(external['metric']) ?? {};
    out['external'] = compact({ metricName: metric['name'] ?? '', metricSelector: metric['selector'], targetValue: target['value'], targetAverageValue: target['averageValue'] });
  }
  return out;
}

/** The v1 MetricStatus of a v2 one. */
function statusToV1(m: Json): Json {
  const out: Json = { type: m['type'] ?? '' };
  const object = record(m['object']);
  if (object !== undefined) {
    const current = record(object['current']) ?? {};
    const metric = record(object['metric']) ?? {};
    out['object'] = compact({
      target: reference(object['describedObject']), metricName: metric['name'] ?? '', currentValue: quantity(current['value']),
      selector: metric['selector'], averageValue: current['averageValue'],
    });
  }
  const pods = record(m['pods']);
  if (pods !== undefined) {
    const metric = record(pods['metric']) ?? {};
    out['pods'] = compact({ metricName: metric['name'] ?? '', currentAverageValue: quantity(record(pods['current'])?.['averageValue']), selector: metric['selector'] });
  }
  for (const kind of ['resource', 'containerResource']) {
    const source = record(m[kind]);
    if (source === undefined) continue;
    const current = record(source['current']) ?? {};
    out[kind] = compact({
      name: source['name'] ?? '', currentAverageUtilization: current['averageUtilization'], currentAverageValue: quantity(current['averageValue']),
      container: kind === 'containerResource' ? source['container'] ?? '' : undefined,
    });
  }
  const external = record(m['external']);
  if (external !== undefined) {
    const current = record(external['current']) ?? {};
    const metric = record(external['metric']) ?? {};
    out['external'] = compact({
      metricName: metric['name'] ?? '', metricSelector: metric['selector'], currentValue: quantity(current['value']), currentAverageValue: current['averageValue'],
    });
  }
  return out;
}

/** The v2 MetricStatus of a v1 one. */
function statusFromV1(m: Json): Json {
  const out: Json = { type: field(m, 'type') ?? '' };
  const object = sub(m, 'object');
  if (object !== undefined) {
    out['object'] = {
      metric: compact({ name: field(object, 'metricName') ?? '', selector: field(object, 'selector') }),
      current: compact({ value: quantity(field(object, 'currentValue')), averageValue: field(object, 'averageValue') }),
      describedObject: reference(lowerKeys(sub(object, 'target'))),
    };
  }
  const pods = sub(m, 'pods');
  if (pods !== undefined) {
    out['pods'] = {
      metric: compact({ name: field(pods, 'metricName') ?? '', selector: field(pods, 'selector') }),
      current: { averageValue: quantity(field(pods, 'currentAverageValue')) },
    };
  }
  for (const kind of ['resource', 'containerResource']) {
    const source = sub(m, kind);
    if (source === undefined) continue;
    out[kind] = compact({
      name: field(source, 'name') ?? '',
      current: compact({ averageValue: quantity(field(source, 'currentAverageValue')), averageUtilization: field(source, 'currentAverageUtilization') }),
      container: kind === 'containerResource' ? field(source, 'container') ?? '' : undefined,
    });
  }
  const external = sub(m, 'external');
  if (external !== undefined) {
    out['external'] = {
      metric: compact({ name: field(external, 'metricName') ?? '', selector: field(external, 'metricSelector') }),
      current: compact({ value: quantity(field(external, 'currentValue')), averageValue: field(external, 'currentAverageValue') }),
    };
  }
  return out;
}

/** A decoded object's keys as the v1 reference spells them (case-insensitive in the annotation). */
function lowerKeys(ref: Json | undefined): Json {
  const r = ref ?? {};
  return { kind: field(r, 'kind'), name: field(r, 'name'), apiVersion: field(r, 'apiVersion') };
}

/** The internal type's JSON of a v2 behavior (Go field names, every field written). */
function behaviorToInternal(behavior: Json): Json {
  const rules = (r: unknown): Json | null => {
    const x = record(r);
    if (x === undefined) return null;
    const policies = Array.isArray(x['policies'])
      ? x['policies'].map((p) => ({ Type: record(p)?.['type'] ?? '', Value: record(p)?.['value'] ?? 0, PeriodSeconds: record(p)?.['periodSeconds'] ?? 0 }))
      : null;
    return { StabilizationWindowSeconds: x['stabilizationWindowSeconds'] ?? null, SelectPolicy: x['selectPolicy'] ?? null, Policies: policies };
  };
  return { ScaleUp: rules(behavior['scaleUp']), ScaleDown: rules(behavior['scaleDown']) };
}

const isInt = (v: unknown): boolean => !isSet(v) || (typeof v === 'number' && Number.isInteger(v));
const isText = (v: unknown): boolean => !isSet(v) || typeof v === 'string';

/** The v2 behavior of the internal type's JSON, or undefined when it does not decode or is empty. */
function behaviorFromInternal(decoded: unknown): Json | undefined {
  const b = record(decoded);
  if (b === undefined) return undefined;
  const rules = (r: unknown): Json | undefined | false => {
    if (!isSet(r)) return undefined;
    const x = record(r);
    if (x === undefined) return false;
    const window = field(x, 'StabilizationWindowSeconds');
    const select = field(x, 'SelectPolicy');
    const policies = field(x, 'Policies');
    if (!isInt(window) || !isText(select) || (isSet(policies) && !Array.isArray(policies))) return false;
    const list: Json[] = [];
    for (const raw of Array.isArray(policies) ? policies : []) {
      const p = record(raw);
      if (p === undefined || !isText(field(p, 'Type')) || !isInt(field(p, 'Value')) || !isInt(field(p, 'PeriodSeconds'))) return false;
      list.push({ type: field(p, 'Type') ?? '', value: field(p, 'Value') ?? 0, periodSeconds: field(p, 'PeriodSeconds') ?? 0 });
    }
    return compact({ stabilizationWindowSeconds: window, selectPolicy: select, policies: Array.isArray(policies) ? list : undefined });
  };
  const up = rules(field(b, 'ScaleUp'));
  const down = rules(field(b, 'ScaleDown'));
  if (up === false || down === false || (up === undefined && down === undefined)) return undefined;
  return compact({ scaleUp: up, scaleDown: down });
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The annotation's list of objects, or undefined when it is absent or does not decode as one. */
function parseObjects(text: string | undefined): Json[] | undefined {
  const v = parse(text);
  if (!Array.isArray(v) || !v.every((x) => record(x) !== undefined || x === null)) return undefined;
  return v.map((x) => record(x) ?? {});
}

/** Whether a v2 metric is a CPU utilization target (the one v1 holds in its spec). */
function isCpuUtilization(metric: Json): boolean {
  const resource = record(metric['resource']);
  return metric['type'] === 'Resource' && resource?.['name'] === 'cpu' && isSet(record(resource['target'])?.['averageUtilization']);
}

/** The round-trip annotation keys of a flavour. */
export function hpaRoundTripAnnotations(names: Names): { metrics: string; currentMetrics: string; conditions: string; behavior: string } {
  const key = (path: string): string => names.domain(path, 'autoscaling.alpha');
  return { metrics: key('metrics'), currentMetrics: key('current-metrics'), conditions: key('conditions'), behavior: key('behavior') };
}

/** The v2 form of a v1 HorizontalPodAutoscaler, before the v2 defaults (what kube's v1 validation sees). */
export function hpaV1ToV2(object: KubeObject, names: Names): KubeObject {
  const keys = hpaRoundTripAnnotations(names);
  const out = structuredClone(object);
  const annotations = out.metadata?.annotations ?? {};
  const spec = record(out['spec']);
  if (spec !== undefined) {
    const { targetCPUUtilizationPercentage: cpu, ...rest } = spec;
    const v2: Json = { ...rest };
    const cpuMetric = isSet(cpu) ? [cpuUtilizationMetric(cpu)] : [];
    const others = parseObjects(annotations[keys.metrics]);
    const metrics = others === undefined ? cpuMetric : [...others.map(metricFromV1), ...cpuMetric];
    v2['metrics'] = metrics.length > 0 ? metrics : [cpuUtilizationMetric(defaultCpuUtilization)];
    const behavior = behaviorFromInternal(parse(annotations[keys.behavior]));
    if (behavior !== undefined) v2['behavior'] = behavior;
    out['spec'] = v2;
  }
  const status = record(out['status']);
  if (status !== undefined) {
    const { currentCPUUtilizationPercentage: cpu, ...rest } = status;
    const v2: Json = { ...rest };
    if (isSet(cpu)) v2['currentMetrics'] = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }];
    const current = parseObjects(annotations[keys.currentMetrics]);
    if (current !== undefined) v2['currentMetrics'] = current.map(statusFromV1);
    const conditions = parseObjects(annotations[keys.conditions]);
    if (conditions !== undefined) v2['conditions'] = conditions;
    out['status'] = v2;
  }
  dropRoundTrip(out, keys);
  return out;
}

function dropRoundTrip(object: KubeObject, keys: Readonly<Record<string, string>>): void {
  const meta = object.metadata;
  if (meta?.annotations === undefined || meta.annotations === null) return;
  const ours = Object.values(keys);
  const kept = Object.fromEntries(Object.entries(meta.annotations).filter(([k]) => !ours.includes(k)));
  if (Object.keys(kept).length > 0) meta.annotations = kept;
  else delete meta.annotations;
}

/** The v1 form of a v2 HorizontalPodAutoscaler. */
export function hpaV2ToV1(object: KubeObject, names: Names): KubeObject {
  const keys = hpaRoundTripAnnotations(names);
  const out = structuredClone(object);
  dropRoundTrip(out, keys);
  const annotations: Record<string, string> = {};
  const spec = record(out['spec']);
  if (spec !== undefined) {
    const { scaleTargetRef, minReplicas, maxReplicas, metrics, behavior } = spec;
    const list = (Array.isArray(metrics) ? metrics : []).map((m) => record(m) ?? {});
    const cpuAt = list.findIndex((m) => m['type'] === 'Resource' && record(m['resource'])?.['name'] === 'cpu');
    const cpu = cpuAt >= 0 ? record(record(list[cpuAt]!['resource'])?.['target'])?.['averageUtilization'] : undefined;
    out['spec'] = compact({ scaleTargetRef: reference(scaleTargetRef), minReplicas, maxReplicas: maxReplicas ?? 0, targetCPUUtilizationPercentage: cpu });
    const others = list.filter((m) => !isCpuUtilization(m));
    if (others.length > 0) annotations[keys.metrics] = JSON.stringify(others.map(metricToV1));
    const b = record(behavior);
    if (b !== undefined) annotations[keys.behavior] = JSON.stringify(behaviorToInternal(b));
  }
  const status = record(out['status']);
  if (status !== undefined) {
    const { currentMetrics, conditions, observedGeneration, lastScaleTime, currentReplicas, desiredReplicas } = status;
    const current = (Array.isArray(currentMetrics) ? currentMetrics : []).map((m) => record(m) ?? {});
    let cpu: unknown;
    for (const m of current) {
      const resource = record(m['resource']);
      if (m['type'] === 'Resource' && resource?.['name'] === 'cpu' && isSet(record(resource['current'])?.['averageUtilization'])) {
        cpu = record(resource['current'])?.['averageUtilization'];
      }
    }
    // v1's replica counts are not omitempty: a v2 status leaving out a zero count still shows it in v1.
    out['status'] = compact({
      observedGeneration, lastScaleTime, currentReplicas: currentReplicas ?? 0, desiredReplicas: desiredReplicas ?? 0, currentCPUUtilizationPercentage: cpu,
    });
    if (current.length > 0) annotations[keys.currentMetrics] = JSON.stringify(current.map(statusToV1));
    if (Array.isArray(conditions) && conditions.length > 0) annotations[keys.conditions] = JSON.stringify(conditions);
  }
  if (Object.keys(annotations).length > 0) {
    const meta = (out.metadata ??= {});
    meta.annotations = { ...(meta.annotations ?? {}), ...annotations };
  }
  return out;
}

/** The conversion of autoscaling/v1 HorizontalPodAutoscalers. */
export function hpaV1Conversion(names: Names): ResourceConversion {
  const storageApiVersion = apiVersionOf(names.group('autoscaling'), 'v2');
  const servedApiVersion = apiVersionOf(names.group('autoscaling'), 'v1');
  const kind = 'HorizontalPodAutoscaler';
  return {
    storage: { groupKey: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind },
    storageApiVersion,
    fromStorage: (object) => ({ ...hpaV2ToV1(object, names), apiVersion: servedApiVersion, kind }),
    toStorage(object) {
      const out = hpaV1ToV2(object, names);
      const spec = record(out['spec']);
      if (spec !== undefined) defaultHpaSpec(spec);
      return { ...out, apiVersion: storageApiVersion, kind };
    },
  };
}
