import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { conversionFor, convertedResources } from './index.js';

const names = namesFor('svc');
const conv = (key: string) => {
  const [groupKey, version, resource] = key.split('/') as [string, string, string];
  const c = conversionFor(names, groupKey, version, resource);
  assert.ok(c, key);
  return c;
};
const meta = { name: 'x', namespace: 'ns', uid: 'u1', labels: { a: 'b' } };

/** A full object of each converted resource in its served version and in its storage version. */
const samples: Record<string, { served: KubeObject[]; stored: KubeObject[] }> = {
  // kube's v1 conversion moves the CPU target after the other metrics and shows every current metric in an
  // annotation: the samples are objects whose round trips are exact under those rules (stored ones defaulted).
  'autoscaling/v1/horizontalpodautoscalers': {
    served: [
      { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: meta, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 1, desiredReplicas: 2 } },
      {
        apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
        metadata: { ...meta, annotations: { keep: 'me', 'autoscaling.alpha.svc.io/metrics': '[{"type":"External","external":{"metricName":"queue","targetAverageValue":"30"}}]' } },
        spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, minReplicas: 2, maxReplicas: 3 },
      },
    ],
    stored: [
      {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta,
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 9,
          metrics: [
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
            { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
            { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          ],
          behavior: {
            scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
            scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
          },
        },
        status: {
          observedGeneration: 3, currentReplicas: 2, desiredReplicas: 3,
          currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 61 } } }],
          conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: '2024-01-01T00:00:00Z' }],
        },
      },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] } },
    ],
  },
  'flowcontrol.apiserver/v1beta2/flowschemas': {
    served: [{ apiVersion: 'flowcontrol.apiserver.svc.io/v1beta2', kind: 'FlowSchema', metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }] } }],
    stored: [{ apiVersion: 'flowcontrol.apiserver.svc.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 1000 }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } }],
  },
  'flowcontrol.apiserver/v1beta2/prioritylevelconfigurations': {
    served: [{ apiVersion: 'flowcontrol.apiserver.svc.io/v1beta2', kind: 'PriorityLevelConfiguration', metadata: { name: 'p' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, lendablePercent: 10, limitResponse: { type: 'Queuing', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } } } }],
    stored: [
      { apiVersion: 'flowcontrol.apiserver.svc.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'p' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, borrowingLimitPercent: 5, limitResponse: { type: 'Reject' } } } },
      { apiVersion: 'flowcontrol.apiserver.svc.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt' }, spec: { type: 'Exempt' } },
    ],
  },
  'events/v1/events': {
    served: [{
      apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: meta, eventTime: '2024-01-01T00:00:00.000000Z', series: { count: 3, lastObservedTime: '2024-01-01T00:01:00.000000Z' },
      reportingController: 'svc.io/ctl', reportingInstance: 'ctl-1', action: 'Scale', reason: 'Scaled', regarding: { kind: 'Pod', name: 'p', namespace: 'ns' },
      related: { kind: 'Node', name: 'n' }, note: 'scaled it', type: 'Normal', deprecatedSource: { component: 'c', host: 'h' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', deprecatedLastTimestamp: '2024-01-01T00:02:00Z', deprecatedCount: 4,
    }],
    stored: [{
      apiVersion: 'v1', kind: 'Event', metadata: meta, involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', fieldPath: 'spec.containers{a}' }, reason: 'Pulled',
      message: 'pulled the image', source: { component: 'kubelet', host: 'n1' }, firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:05:00Z',
      count: 2, type: 'Normal', reportingComponent: 'kubelet', reportingInstance: 'n1',
    }],
  },
};

test('conversion: every converted resource has samples', () => {
  assert.deepEqual([...convertedResources].sort(), Object.keys(samples).sort());
});

for (const key of convertedResources) {
  test(`conversion round trip: ${key} served → storage → served and storage → served → storage`, () => {
    const c = conv(key);
    for (const served of samples[key]!.served) {
      const frozen = structuredClone(served);
      const stored = c.toStorage(served);
      assert.deepEqual(served, frozen, 'toStorage does not change its argument');
      assert.equal(stored.apiVersion, c.storageApiVersion);
      assert.deepEqual(c.fromStorage(stored), served);
    }
    for (const stored of samples[key]!.stored) {
      const frozen = structuredClone(stored);
      const served = c.fromStorage(stored);
      assert.deepEqual(stored, frozen, 'fromStorage does not change its argument');
      assert.deepEqual(c.toStorage(served), stored);
    }
  });
}

test('conversion: renamed fields land where the other version names them', () => {
  const pl = conv('flowcontrol.apiserver/v1beta2/prioritylevelconfigurations').toStorage(samples['flowcontrol.apiserver/v1beta2/prioritylevelconfigurations']!.served[0]!);
  assert.equal((pl['spec'] as { limited: Record<string, unknown> }).limited['nominalConcurrencyShares'], 7);
  assert.equal((pl['spec'] as { limited: Record<string, unknown> }).limited['assuredConcurrencyShares'], undefined);
  const ev = conv('events/v1/events');
  const core = ev.toStorage(samples['events/v1/events']!.served[0]!);
  assert.deepEqual(core['involvedObject'], { kind: 'Pod', name: 'p', namespace: 'ns' });
  assert.equal(core['message'], 'scaled it');
  assert.equal(core['reportingComponent'], 'svc.io/ctl');
  assert.deepEqual(core['source'], { component: 'c', host: 'h' });
  assert.equal(core['count'], 4);
  assert.equal(core['firstTimestamp'], '2024-01-01T00:00:00Z');
  const v1 = ev.fromStorage(samples['events/v1/events']!.stored[0]!);
  assert.equal(v1['note'], 'pulled the image');
  assert.equal(v1['deprecatedCount'], 2);
  assert.equal(v1.apiVersion, 'events.svc.io/v1');
  const hpa = conv('autoscaling/v1/horizontalpodautoscalers');
  const v1hpa = hpa.fromStorage(samples['autoscaling/v1/horizontalpodautoscalers']!.stored[0]!);
  assert.equal((v1hpa['spec'] as Record<string, unknown>)['targetCPUUtilizationPercentage'], 60);
  assert.equal((v1hpa['status'] as Record<string, unknown>)['currentCPUUtilizationPercentage'], 61);
  const annotations = v1hpa.metadata?.annotations ?? {};
  // The other metrics and every current metric in autoscaling/v1's own shapes; the behavior as kube marshals its internal type.
  assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.svc.io/metrics']!), [
    { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '1k' } },
    { type: 'Resource', resource: { name: 'memory', targetAverageValue: '1Gi' } },
  ]);
  assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.svc.io/current-metrics']!), [
    { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 61, currentAverageValue: '120m' } },
  ]);
  assert.equal(annotations['autoscaling.alpha.svc.io/behavior'],
    '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},' +
    '"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}');
  const v2hpa = hpa.toStorage(samples['autoscaling/v1/horizontalpodautoscalers']!.served[0]!);
  assert.deepEqual((v2hpa['spec'] as Record<string, unknown>)['metrics'], [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
  // A v1 client changing the CPU target changes the stored metric, which follows the annotation's metrics.
  const edited = structuredClone(v1hpa);
  (edited['spec'] as Record<string, unknown>)['targetCPUUtilizationPercentage'] = 75;
  const back = hpa.toStorage(edited)['spec'] as { metrics: unknown[] };
  assert.deepEqual(back.metrics[2], { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } });
  assert.equal(back.metrics.length, 3);
  // Annotations that do not decode are ignored; keys match case-insensitively; the round-trip keys are never stored.
  const loose = hpa.toStorage({
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'x', annotations: {
      'autoscaling.alpha.svc.io/metrics': 'not json', 'autoscaling.alpha.svc.io/behavior': '{"scaleDown":{"selectPolicy":"Min"}}',
    } }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2 },
  });
  assert.equal(loose.metadata?.annotations, undefined);
  const looseSpec = loose['spec'] as { metrics: unknown[]; behavior: { scaleDown: Record<string, unknown> } };
  assert.deepEqual(looseSpec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal(looseSpec.behavior.scaleDown['selectPolicy'], 'Min');
});
