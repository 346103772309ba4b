/**
 * The served kinds print as kube-apiserver 1.27 prints them: with their own columns exactly where kube has a
 * printer for the kind (pkg/printers/internalversion, and kube-aggregator's for APIServices), and with the default
 * Name / Created At table elsewhere (Roles, ClusterRoles, CustomResourceDefinitions).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupResourceKey, type GroupResourceKey } from '../../../schema/resource-keys.js';
import { tableCoverage } from '../../../testing/table-coverage.js';
import { servedResources } from '../../../registry/served-resources.js';
import { printerTable } from './index.js';

/** The served-by-default resources kube-apiserver 1.27 prints with columns of their own. */
const kubePrinters: ReadonlySet<GroupResourceKey> = new Set<GroupResourceKey>([
  'core/pods', 'core/podtemplates', 'core/replicationcontrollers', 'core/services', 'core/endpoints', 'core/nodes',
  'core/events', 'core/namespaces', 'core/secrets', 'core/serviceaccounts', 'core/persistentvolumes',
  'core/persistentvolumeclaims', 'core/componentstatuses', 'core/configmaps', 'core/resourcequotas', 'core/limitranges',
  'apps/deployments', 'apps/replicasets', 'apps/daemonsets', 'apps/statefulsets', 'apps/controllerrevisions',
  'batch/jobs', 'batch/cronjobs', 'autoscaling/horizontalpodautoscalers', 'networking/ingresses',
  'networking/ingressclasses', 'networking/networkpolicies', 'policy/poddisruptionbudgets',
  'rbac.authorization/rolebindings', 'rbac.authorization/clusterrolebindings', 'certificates/certificatesigningrequests',
  'coordination/leases', 'storage/storageclasses', 'storage/csidrivers', 'storage/csinodes',
  'storage/csistoragecapacities', 'storage/volumeattachments', 'scheduling/priorityclasses', 'node/runtimeclasses',
  'discovery/endpointslices', 'events/events', 'admissionregistration/mutatingwebhookconfigurations',
  'admissionregistration/validatingwebhookconfigurations', 'flowcontrol.apiserver/flowschemas',
  'flowcontrol.apiserver/prioritylevelconfigurations', 'apiregistration/apiservices',
]);

test('every served kind kube-apiserver 1.27 prints with its own columns has a printer, and no other kind has one', () => {
  assert.deepEqual(tableCoverage(printerTable, kubePrinters, servedResources), { missing: [], extra: [] });
  for (const key of kubePrinters) {
    assert.ok(servedResources.some((r) => groupResourceKey(r.groupKey, r.resource) === key), `${key} is served by default`);
  }
});
