/**
 * The randomized history test: concurrent writers, deletes and compactions while clients list (whole or in pages)
 * and watch, resuming from their last resourceVersion when a watch ends and listing again on 410. Each client's
 * reconstructed state must equal the store's, with every event newer than the one before it, over many seeds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type KubeObject, type Status } from '@svc-apiserver/api';
import { createAdmissionChain } from '../admission/chain.js';
import { loadCatalog } from '../schema/load-catalog.js';
import { openMemoryBackend } from '../storage/memory/memory-backend.js';
import { createRegistry } from './registry.js';
import { seededRandom } from '../testing/seeded-random.js';
import type { ResourceDef } from './resource-def.js';
import { selectEverything } from './selection.js';
import type { Store } from './store.js';

const names = namesFor('svc');
const catalog = loadCatalog(names);

const rng = seededRandom;

const pause = () => new Promise<void>((r) => setImmediate(r));

interface Client {
  state: Map<string, number>;
  last: number;
  done: Promise<void>;
}

/** A client that lists and watches until `stop()` says so, resuming and re-listing as a reflector does. */
function runClient(store: Store, def: ResourceDef, random: () => number, stopped: () => boolean, seedInfo: string): Client {
  const client: Client = { state: new Map(), last: 0, done: Promise.resolve() };
  const list = async (): Promise<void> => {
    for (;;) {
      const limit = random() < 0.5 ? 1 + Math.floor(random() * 5) : 0;
      const rv = random() < 0.3 ? '0' : undefined;
      const state = new Map<string, number>();
      let token: string | undefined;
      let listRv = '';
      let expired = false;
      do {
        const page = await store.list(def, { namespace: 'default', selection: selectEverything, limit, ...(token ? { continue: token } : rv !== undefined ? { resourceVersion: rv } : {}) });
        if (!page.ok) {
          assert.equal(page.error.code, 410, `${seedInfo}: ${page.error.message}`);
          expired = true;
          break;
        }
        if (listRv !== '') assert.equal(page.value.metadata.resourceVersion, listRv, `${seedInfo}: one snapshot per list`);
        listRv = page.value.metadata.resourceVersion!;
        for (const item of page.value.items) state.set(item.metadata!.name!, Number(item.metadata!.resourceVersion));
        token = page.value.metadata.continue;
        if (random() < 0.3) await pause();
      } while (token);
      if (expired) continue;
      client.state = state;
      client.last = Number(listRv);
      return;
    }
  };
  const watchOnce = (): Promise<'resume' | 'relist' | 'stop'> => new Promise((resolve) => {
    let settled = false;
    const end = (how: 'resume' | 'relist' | 'stop'): void => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      handle?.cancel();
      resolve(how);
    };
    let handle: { cancel(): void } | undefined;
    const poll = setInterval(() => {
      if (stopped()) end('stop');
      else if (random() < 0.1) end('resume');
    }, 2);
    void store.watch(def, { namespace: 'default', selection: selectEverything, resourceVersion: String(client.last) }, {
      event(e) {
        if (settled) return;
        const object = e.object as KubeObject;
        const rv = Number(object.metadata?.resourceVersion);
        assert.ok(rv > client.last, `${seedInfo}: event ${e.type} ${object.metadata?.name} at ${rv} after ${client.last}`);
        client.last = rv;
        const name = object.metadata!.name!;
        if (e.type === 'DELETED') {
          assert.ok(client.state.has(name), `${seedInfo}: DELETED of unknown ${name}`);
          client.state.delete(name);
        } else {
          assert.equal(client.state.has(name), e.type === 'MODIFIED', `${seedInfo}: ${e.type} ${name}`);
          client.state.set(name, rv);
        }
      },
      error(status: Status) {
        assert.equal(status.code, 410, `${seedInfo}: ${status.message}`);
        end('relist');
      },
      end: () => end('resume'),
    }).then((started) => {
      if (!started.ok) {
        assert.equal(started.error.code, 410);
        end('relist');
      } else if (settled) started.value.cancel();
      else handle = started.value;
    });
  });
  client.done = (async () => {
    await list();
    for (;;) {
      const how = await watchOnce();
      if (how === 'stop') return;
      if (how === 'relist') await list();
    }
  })();
  return client;
}

async function runSeed(seed: number): Promise<void> {
  const random = rng(seed);
  const backend = openMemoryBackend();
  const admission = createAdmissionChain({ names });
  if (!admission.ok) throw new Error('admission');
  const registry = createRegistry({
    backend, catalog, names, admission: admission.value,
    store: { cache: { maxEvents: 5 + Math.floor(random() * 40) } },
  });
  const store = registry.store;
  const def = registry.lookup('', 'v1', 'configmaps')!;
  // A kube-apiserver's storage is never at revision 0 (etcd starts at 1 and the server writes at start). At 0 a
  // client's list says resourceVersion "0", and its watch from "0" is a watch from any version that starts with
  // the objects present, in key order rather than revision order, which the reflector below does not expect.
  assert.ok((await backend.create('/registry/unrelated', '{}')).ok);
  let stop = false;
  const clients = Array.from({ length: 3 }, (_, i) => runClient(store, def, random, () => stop, `seed ${seed} client ${i}`));
  const writer = async (w: number): Promise<void> => {
    for (let op = 0; op < 60; op++) {
      const name = `k${Math.floor(random() * 12)}`;
      const got = await store.get(def, 'default', name);
      if (!got.ok) {
        await store.create(def, { metadata: { name, namespace: 'default' }, data: { w: String(w) } }, { dryRun: false, retryGenerateName: false });
      } else if (random() < 0.35) {
        await store.remove(def, got.value, { dryRun: false });
      } else {
        await store.update(def, { ...got.value, data: { w: String(w), op: String(op) } }, { dryRun: false });
      }
      if (random() < 0.05) await backend.compact(Math.max(1, (await backend.currentRevision()) - Math.floor(random() * 10)));
      if (random() < 0.5) await pause();
    }
  };
  await Promise.all([writer(1), writer(2), writer(3)]);
  const final = await store.list(def, { namespace: 'default', selection: selectEverything });
  assert.ok(final.ok);
  const finalRv = Number(final.value.metadata.resourceVersion);
  const expected = new Map(final.value.items.map((i) => [i.metadata!.name!, Number(i.metadata!.resourceVersion)]));
  // Let every client catch up with the last write, then stop them.
  const deadline = Date.now() + 5000;
  while (clients.some((c) => c.last < finalRv) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  stop = true;
  await Promise.all(clients.map((c) => c.done));
  for (const [i, c] of clients.entries()) {
    assert.ok(c.last >= finalRv, `seed ${seed} client ${i} stuck at ${c.last} < ${finalRv}`);
    assert.deepEqual(c.state, expected, `seed ${seed} client ${i}`);
  }
  store.close();
  await backend.close();
}

test('randomized history: concurrent writes, deletes and compactions; clients list, watch and resume', async () => {
  const started = Date.now();
  for (let seed = 1; seed <= 40; seed++) await runSeed(seed);
  assert.ok(Date.now() - started < 30_000, 'stays fast');
});
