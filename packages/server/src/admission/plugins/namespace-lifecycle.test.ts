import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { anonymousUser } from '../../request/user-info.js';
import type { AdmissionAttributes, AdmissionOperation } from '../plugin.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';

/** A plugin over a cache and a live store that may disagree, counting the reads of each. */
function setup(cache: Map<string, KubeObject>, live: Map<string, KubeObject>) {
  const reads = { cached: 0, live: 0 };
  const plugin = namespaceLifecyclePlugin(namesFor('svc'));
  plugin.initialize({
    getNamespace(name, options) {
      if (options?.cached === true) {
        reads.cached++;
        return Promise.resolve(cache.get(name));
      }
      reads.live++;
      return Promise.resolve(live.get(name));
    },
  });
  return { plugin, reads };
}

const attrs = (operation: AdmissionOperation, resource: string, namespace: string, name: string): AdmissionAttributes => ({
  operation, group: '', version: 'v1', resource, subresource: '', kind: 'ConfigMap', namespace, name, dryRun: false, user: anonymousUser,
  ...(operation === 'DELETE' ? {} : { object: { metadata: { name } } }),
});

const ns = (name: string, phase = 'Active'): KubeObject => ({ metadata: { name }, status: { phase } });

test('a namespace the cache holds is admitted without a live read', async () => {
  const { plugin, reads } = setup(new Map([['a', ns('a')]]), new Map([['a', ns('a')]]));
  assert.deepEqual(await plugin.admit!(attrs('CREATE', 'configmaps', 'a', 'x')), { allowed: true });
  assert.deepEqual(reads, { cached: 1, live: 0 });
});

test('a namespace missing from the cache is looked up live before refusing', async () => {
  const { plugin, reads } = setup(new Map(), new Map([['new', ns('new')]]));
  assert.deepEqual(await plugin.admit!(attrs('CREATE', 'configmaps', 'new', 'x')), { allowed: true });
  assert.deepEqual(reads, { cached: 1, live: 1 });
  const missing = await plugin.admit!(attrs('CREATE', 'configmaps', 'absent', 'x'));
  assert.equal(missing.allowed, false);
  assert.equal(!missing.allowed && missing.status.code, 404);
});

test('after a namespace deletion is admitted, its lookups are live and see Terminating at once', async () => {
  // The cache still shows the namespace Active; storage already has it Terminating.
  const { plugin, reads } = setup(new Map([['gone', ns('gone')]]), new Map([['gone', ns('gone', 'Terminating')]]));
  assert.deepEqual(await plugin.admit!(attrs('DELETE', 'namespaces', '', 'gone')), { allowed: true });
  const refused = await plugin.admit!(attrs('CREATE', 'configmaps', 'gone', 'x'));
  assert.equal(refused.allowed, false);
  assert.equal(!refused.allowed && refused.status.code, 403);
  assert.deepEqual(reads, { cached: 0, live: 1 });
});
