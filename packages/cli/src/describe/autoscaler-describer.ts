/**
 * kubectl's layout of a HorizontalPodAutoscaler: read as autoscaling/v2 (describeHorizontalPodAutoscalerV2: each
 * metric's current value against its target, the scaling behavior, the replicas and conditions), or as
 * autoscaling/v1 when the server has no v2 (its CPU utilization target), then its Events.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { header, meta, type Any, type Describer } from './describe-context.js';
import { writeEvents, type DescribeWriter } from './describe-writer.js';
import { rfc1123z } from './go-format.js';
import { canonicalQuantity } from './quantity.js';

/** `Quantity.String()` of an optional quantity: `<nil>` when absent, as Go prints a nil pointer. */
const quantityOrNil = (v: unknown): string => (v === undefined || v === null ? '<nil>' : canonicalQuantity(v));

/** One metric's line: what it measures, then `current / target`. */
function writeMetric(w: DescribeWriter, metric: Any, current: Any | undefined): void {
  switch (metric.type) {
    case 'External': {
      const ext: Any = metric.external ?? {};
      const cur: Any | undefined = current?.external?.current;
      if (ext.target?.averageValue !== undefined) {
        const now = cur?.averageValue !== undefined ? canonicalQuantity(cur.averageValue) : '<unknown>';
        w.write(1, `${JSON.stringify(ext.metric?.name ?? '')} (target average value):\t${now} / ${canonicalQuantity(ext.target.averageValue)}\n`);
      } else {
        const now = current?.external ? quantityOrNil(cur?.value) : '<unknown>';
        w.write(1, `${JSON.stringify(ext.metric?.name ?? '')} (target value):\t${now} / ${quantityOrNil(ext.target?.value)}\n`);
      }
      return;
    }
    case 'Pods': {
      const now = current?.pods ? quantityOrNil(current.pods.current?.averageValue) : '<unknown>';
      w.write(1, `${JSON.stringify(metric.pods?.metric?.name ?? '')} on pods:\t${now} / ${quantityOrNil(metric.pods?.target?.averageValue)}\n`);
      return;
    }
    case 'Object': {
      const obj: Any = metric.object ?? {};
      w.write(1, `"${obj.metric?.name ?? ''}" on ${obj.describedObject?.kind ?? ''}/${obj.describedObject?.name ?? ''} `);
      if (obj.target?.type === 'AverageValue') {
        const now = current?.object ? quantityOrNil(current.object.current?.averageValue) : '<unknown>';
        w.write(0, `(target average value):\t${now} / ${quantityOrNil(obj.target.averageValue)}\n`);
      } else {
        const now = current?.object ? quantityOrNil(current.object.current?.value) : '<unknown>';
        w.write(0, `(target value):\t${now} / ${quantityOrNil(obj.target?.value)}\n`);
      }
      return;
    }
    case 'Resource':
    case 'ContainerResource': {
      const isContainer = metric.type === 'ContainerResource';
      const source: Any = (isContainer ? metric.containerResource : metric.resource) ?? {};
      const cur: Any | undefined = isContainer ? current?.containerResource : current?.resource;
      w.write(1, isContainer ? `resource ${source.name ?? ''} of container "${source.container ?? ''}" on pods` : `resource ${source.name ?? ''} on pods`);
      if (source.target?.averageValue !== undefined) {
        w.write(0, `:\t${cur ? quantityOrNil(cur.current?.averageValue) : '<unknown>'} / ${canonicalQuantity(source.target.averageValue)}\n`);
      } else {
        const utilization: unknown = cur?.current?.averageUtilization;
        const now = cur && utilization !== undefined ? `${String(utilization)}% (${quantityOrNil(cur.current?.averageValue)})` : '<unknown>';
        const target = source.target?.averageUtilization !== undefined ? `${source.target.averageUtilization}%` : '<auto>';
        w.write(1, `(as a percentage of request):\t${now} / ${target}\n`);
      }
      return;
    }
    default:
      w.write(1, `<unknown metric type ${JSON.stringify(metric.type ?? '')}>\n`);
  }
}

/** kubectl's printDirectionBehavior. */
function writeBehavior(w: DescribeWriter, direction: string, rules: Any | undefined): void {
  if (!rules) return;
  w.write(1, `${direction}:\n`);
  if (rules.stabilizationWindowSeconds !== undefined) w.write(2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
  const policies: Any[] = rules.policies ?? [];
  if (policies.length === 0) return;
  w.write(2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
  w.write(2, 'Policies:\n');
  for (const p of policies) w.write(3, `- Type: ${p.type ?? ''}\tValue: ${p.value ?? 0}\tPeriod: ${p.periodSeconds ?? 0} seconds\n`);
}

/** kubectl's HorizontalPodAutoscaler layout. */
export const horizontalPodAutoscalerDescriber: Describer = async (w, ctx) => {
  let hpa = ctx.obj as Any;
  const v2 = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
  if (hpa.apiVersion !== 'autoscaling/v2') {
    const got = await ctx.get(v2, meta(ctx.obj).namespace, String(meta(ctx.obj).name ?? ''));
    if (got.ok) hpa = got.value as Any;
  }
  const spec: Any = hpa.spec ?? {};
  const st: Any = hpa.status ?? {};
  header(w, { ...ctx, obj: hpa as KubeObject }, true);
  w.write(0, `CreationTimestamp:\t${rfc1123z(hpa.metadata?.creationTimestamp)}\n`);
  w.write(0, `Reference:\t${spec.scaleTargetRef?.kind ?? ''}/${spec.scaleTargetRef?.name ?? ''}\n`);
  if (hpa.apiVersion === 'autoscaling/v2') {
    w.write(0, 'Metrics:\t( current / target )\n');
    (spec.metrics ?? []).forEach((metric: Any, i: number) => writeMetric(w, metric, (st.currentMetrics ?? [])[i]));
  } else if (spec.targetCPUUtilizationPercentage !== undefined) {
    w.write(0, `Target CPU utilization:\t${spec.targetCPUUtilizationPercentage}%\n`);
    w.write(0, `Current CPU utilization:\t${st.currentCPUUtilizationPercentage ?? '<unknown>'}%\n`);
  }
  w.write(0, `Min replicas:\t${spec.minReplicas ?? '<unset>'}\n`);
  w.write(0, `Max replicas:\t${spec.maxReplicas ?? 0}\n`);
  if (hpa.apiVersion === 'autoscaling/v2' && spec.behavior) {
    w.write(0, 'Behavior:\n');
    writeBehavior(w, 'Scale Up', spec.behavior.scaleUp);
    writeBehavior(w, 'Scale Down', spec.behavior.scaleDown);
  }
  w.write(0, `${spec.scaleTargetRef?.kind ?? ''} pods:\t`);
  w.write(0, `${st.currentReplicas ?? 0} current / ${st.desiredReplicas ?? 0} desired\n`);
  const conditions: Any[] = st.conditions ?? [];
  if (hpa.apiVersion === 'autoscaling/v2' && conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tReason\tMessage\n');
    w.write(1, '----\t------\t------\t-------\n');
    for (const c of conditions) w.write(1, `${c.type ?? ''}\t${c.status ?? ''}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
  writeEvents(w, await ctx.events());
};
