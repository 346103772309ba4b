import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../testing/test-registry.js';
import { startSystemPriorityClasses } from './system-priority-classes.js';

test('scheduling/bootstrap-system-priority-classes creates both classes once; replicas racing meet AlreadyExists; existing ones are kept', async () => {
  const { registry, names, call } = await testRegistry([]);
  const logged: string[] = [];
  const hooks = [startSystemPriorityClasses(registry, names, 10, (m) => logged.push(m)), startSystemPriorityClasses(registry, names, 10, (m) => logged.push(m))];
  await Promise.all(hooks.map((h) => h.done));
  for (const h of hooks) assert.equal(await h.checks[0]!.check(), undefined);
  assert.equal(hooks[0]!.checks[0]!.name, 'poststarthook/scheduling/bootstrap-system-priority-classes');
  const list = (await call({ verb: 'list', group: 'scheduling.svc.io', resource: 'priorityclasses' })).body as { items: KubeObject[] };
  assert.deepEqual(list.items.map((pc) => [pc.metadata?.name, pc['value'], pc['preemptionPolicy'], pc['globalDefault']]), [
    ['system-cluster-critical', 2_000_000_000, 'PreemptLowerPriority', undefined],
    ['system-node-critical', 2_000_001_000, 'PreemptLowerPriority', undefined],
  ]);
  assert.match(String(list.items[1]!['description']), /must not be moved from their current node/);
  // A changed description is left as it is at the next start, as kube only creates missing classes.
  await call({ verb: 'patch', group: 'scheduling.svc.io', resource: 'priorityclasses', name: 'system-node-critical', contentType: 'application/merge-patch+json', body: { description: 'ours' } });
  const again = startSystemPriorityClasses(registry, names, 10);
  await again.done;
  const pc = (await call({ verb: 'get', group: 'scheduling.svc.io', resource: 'priorityclasses', name: 'system-node-critical' })).body as KubeObject;
  assert.equal(pc['description'], 'ours');
  // Whichever replica won each race, each class was created (and logged) once.
  assert.deepEqual(logged.filter((m) => m.startsWith('created')).sort(), [
    'created PriorityClass system-cluster-critical with value 2000000000', 'created PriorityClass system-node-critical with value 2000001000',
  ]);
});
