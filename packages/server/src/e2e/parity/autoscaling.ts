/**
 * autoscaling HorizontalPodAutoscaler rules compared one by one with kube-apiserver 1.27's autoscaling validation,
 * v2 defaults and strategy: metric sources and targets, scaling rules and policies, the scale-to-zero bound of the
 * HPAScaleToZero gate (off), no generation, the status reset on create, and autoscaling/v1 objects validated as
 * their v2 conversion (so their errors carry the v2 field paths).
 */
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

const target = { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' };

/** The autoscaling rules' corpus. */
export function autoscalingCases(): ParityCase[] {
  const v2 = grouped('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler');
  const v1 = grouped('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler');
  const cpu = (target: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', target } });
  return [
    {
      name: 'HorizontalPodAutoscaler v2: no generation, the status is reset on create and kept on update', resource: v2,
      steps: [
        {
          op: 'create', object: { spec: { scaleTargetRef: target, maxReplicas: 3 }, status: { currentReplicas: 5, desiredReplicas: 4 } },
          expect: created({ status: { desiredReplicas: 0 }, 'spec.metrics': [cpu({ type: 'Utilization', averageUtilization: 80 })] }, ['metadata.generation']),
        },
        { op: 'update', merge: { spec: { maxReplicas: 4 }, status: { desiredReplicas: 2 } }, expect: ok({ status: { desiredReplicas: 0 } }, ['metadata.generation']) },
        { op: 'update', merge: { status: { desiredReplicas: -1 } }, subresource: 'status', expect: invalid(['status.desiredReplicas']) },
        { op: 'update', merge: { status: { desiredReplicas: 2 } }, subresource: 'status', expect: ok({ 'status.desiredReplicas': 2, 'spec.maxReplicas': 4 }) },
      ],
    },
    rejectedCreate('HorizontalPodAutoscaler v2: minReplicas 0 while HPAScaleToZero is off', v2,
      { spec: { scaleTargetRef: target, minReplicas: 0, maxReplicas: 3 } },
      ['spec.minReplicas', 'spec.metrics'], ['must be greater than or equal to 1', 'must specify at least one Object or External metric']),
    rejectedCreate('HorizontalPodAutoscaler v2: the target reference is a path segment', v2,
      { spec: { scaleTargetRef: { kind: 'Deploy/ment', name: '..' }, maxReplicas: 0 } },
      ['spec.scaleTargetRef.kind', 'spec.scaleTargetRef.name', 'spec.maxReplicas', 'spec.maxReplicas'], ["may not contain '/'", "may not be '..'"]),
    rejectedCreate('HorizontalPodAutoscaler v2: resource targets need a utilization or an average value, not both', v2,
      {
        spec: {
          scaleTargetRef: target, maxReplicas: 3,
          metrics: [
            cpu({ type: 'Value', value: '1' }),
            cpu({ type: 'Utilization', averageUtilization: 0, averageValue: '-1' }),
          ],
        },
      },
      [
        'spec.metrics[0].resource.target.averageUtilization',
        'spec.metrics[1].resource.target.averageValue', 'spec.metrics[1].resource.target.averageUtilization',
        'spec.metrics[1].resource.target.averageValue',
      ],
      ['must set either a target raw value or a target utilization', 'may not set both a target raw value and a target utilization', 'must be positive']),
    rejectedCreate('HorizontalPodAutoscaler v2: pods, object and external sources and their targets', v2,
      {
        spec: {
          scaleTargetRef: target, maxReplicas: 3,
          metrics: [
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value', value: '10' } } },
            { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: '' }, target: { type: 'Utilization' } } },
            { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', value: '1', averageValue: '2' } } },
          ],
        },
      },
      [
        'spec.metrics[0].pods.target.averageValue', 'spec.metrics[1].object.metric.name', 'spec.metrics[1].object.target.averageValue',
        'spec.metrics[2].external.target.value',
      ],
      ['must specify a positive target averageValue', 'must specify a metric name', 'may not set both a target value for metric and a per-pod target']),
    rejectedCreate('HorizontalPodAutoscaler v2: a metric names its type\'s source and that source only', v2,
      {
        spec: {
          scaleTargetRef: target, maxReplicas: 3,
          metrics: [
            { type: 'Resource', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } },
            { ...cpu({ type: 'Utilization', averageUtilization: 50 }), external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } },
            { type: 'Queue' },
          ],
        },
      },
      ['spec.metrics[0].resource', 'spec.metrics[1].external', 'spec.metrics[2].type', 'spec.metrics[2].type'],
      ['must populate information for the given metric source', 'must populate the given metric source only', 'Unsupported value: "Queue"']),
    rejectedCreate('HorizontalPodAutoscaler v2: container resource metrics name a container and a standard resource', v2,
      {
        spec: {
          scaleTargetRef: target, maxReplicas: 3,
          metrics: [{ type: 'ContainerResource', containerResource: { name: 'gpu', container: 'App', target: { type: 'Utilization', averageUtilization: 50 } } }],
        },
      },
      ['spec.metrics[0].containerResource.name', 'spec.metrics[0].containerResource.name', 'spec.metrics[0].containerResource.container'],
      ['must be a standard resource type or fully qualified', 'must be a standard resource for containers']),
    rejectedCreate('HorizontalPodAutoscaler v2: scaling rules bound windows and periods, know their policies', v2,
      {
        spec: {
          scaleTargetRef: target, maxReplicas: 3,
          behavior: {
            scaleUp: { stabilizationWindowSeconds: 3601, selectPolicy: 'Average', policies: [{ type: 'Nodes', value: 0, periodSeconds: 1801 }] },
            scaleDown: { stabilizationWindowSeconds: -1, policies: [{ type: 'Pods', value: 1, periodSeconds: 0 }] },
          },
        },
      },
      [
        'spec.behavior.scaleUp.stabilizationWindowSeconds', 'spec.behavior.scaleUp.selectPolicy', 'spec.behavior.scaleUp.policies[0].type',
        'spec.behavior.scaleUp.policies[0].value', 'spec.behavior.scaleUp.policies[0].periodSeconds',
        'spec.behavior.scaleDown.stabilizationWindowSeconds', 'spec.behavior.scaleDown.policies[0].periodSeconds',
      ],
      ['must be less than or equal to 3600', 'must be less than or equal to 1800', 'must be greater than or equal to zero']),
    {
      name: 'HorizontalPodAutoscaler v1: validated as its v2 conversion, with the v2 field paths', resource: v1,
      steps: [
        {
          op: 'create', object: { spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 2 } },
          expect: created({ 'spec.minReplicas': 1, status: { currentReplicas: 0, desiredReplicas: 0 } }, ['metadata.generation']),
        },
        { op: 'update', merge: { spec: { targetCPUUtilizationPercentage: 0 } }, expect: invalid(['spec.metrics[0].resource.target.averageUtilization'], ['must be greater than 0']) },
        { op: 'update', merge: { spec: { minReplicas: 0 } }, expect: invalid(['spec.minReplicas', 'spec.metrics']) },
        { op: 'update', merge: { status: { currentReplicas: -1 } }, subresource: 'status', expect: invalid(['status.currentReplicas']) },
      ],
    },
  ];
}
