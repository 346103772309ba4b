import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { deprecationOf, recordDeprecatedRequest } from './deprecation.js';
import type { ResourceDef } from './resource-def.js';

test('deprecation: kube-apiserver wording, gauge and audit annotations', async () => {
  const names = namesFor('k8s');
  const def = { groupKey: 'flowcontrol.apiserver', group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta2', resource: 'flowschemas', kind: 'FlowSchema' } as ResourceDef;
  const warnings: string[] = [];
  const metrics = createMetricsRegistry();
  const notice = recordDeprecatedRequest(names, def, '', (t) => warnings.push(t), metrics);
  assert.deepEqual(warnings, ['flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema']);
  assert.deepEqual(notice?.auditAnnotations, { [names.domain('deprecated')]: 'true', [names.domain('removed-release')]: '1.29' });
  assert.match(await metrics.exposition(), /^apiserver_requested_deprecated_apis\{group="flowcontrol\.apiserver\.k8s\.io",version="v1beta2",resource="flowschemas",subresource="",removed_release="1\.29"\} 1$/m);
  const cs = deprecationOf(names, { groupKey: '', group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus' });
  assert.equal(cs?.warning, 'v1 ComponentStatus is deprecated in v1.19+');
  assert.equal(deprecationOf(names, { groupKey: 'apps', group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' }), undefined);
  assert.equal(recordDeprecatedRequest(names, { ...def, version: 'v1beta3' }, '', (t) => warnings.push(t), metrics), undefined);
  assert.equal(warnings.length, 1);
});
