/**
 * Durability: `kill -9` during 64 concurrent creates loses no acknowledged (201) object; the restarted server reuses
 * its certificates; SIGTERM shuts down gracefully with exit code 0.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createClient } from '@svc-apiserver/client';
import { parse } from 'yaml';
import { call } from './http.js';
import { startServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

/** The root CA ConfigMap would be one more object in the namespace whose content is checked. */
const withoutRootCa = ['--controllers=*,-root-ca-cert-publisher'];

const dataDir = tempDir({ after }, 'svc-e2e-crash-');
const ns = 'e2e-crash';

function caOf(kubeconfigPath: string): string {
  const doc = parse(readFileSync(kubeconfigPath, 'utf8')) as { clusters: Array<{ cluster: Record<string, string> }> };
  return doc.clusters[0]?.cluster['certificate-authority-data'] ?? '';
}

test('kill -9 during 64 concurrent creates, restart: every acknowledged object is there, same CA', async (t) => {
  const first = await startServerProcess({ dataDir, keepDataDir: true, extraArgs: withoutRootCa });
  const ca = caOf(first.kubeconfigPath);
  assert.ok(ca, 'the kubeconfig carries certificate-authority-data');
  const nsr = await call(first.client, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  assert.equal(nsr.status, 201, nsr.text);

  // each worker has its own keep-alive client, as independent HTTPS clients would
  const acknowledged: string[] = [];
  let stop = false;
  const workers = Array.from({ length: 64 }, async (_, w) => {
    const client = createClient(first.admin, { timeoutMs: 10_000 });
    try {
      for (let i = 0; !stop; i++) {
        const name = `cm-${w}-${i}`;
        const r = await client.raw({
          method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { worker: String(w), i: String(i) } }),
        });
        if (!r.ok) break; // the server is gone
        if (r.value.status === 201) acknowledged.push(name);
        else assert.fail(`create ${name}: ${r.value.status} ${r.value.body.toString()}`);
      }
    } finally {
      client.close();
    }
  });
  // let the load build up, then pull the plug
  const deadline = Date.now() + 10_000;
  while (acknowledged.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const killed = await first.kill();
  stop = true;
  await Promise.all(workers);
  assert.equal(killed.signal, 'SIGKILL');
  assert.ok(acknowledged.length > 0, 'some creates were acknowledged before the kill');
  t.diagnostic(`${acknowledged.length} creates acknowledged before kill -9`);

  const second = await startServerProcess({ dataDir, keepDataDir: true, extraArgs: withoutRootCa });
  try {
    assert.equal(caOf(second.kubeconfigPath), ca, 'the CA is reused');
    // the old admin credentials (old CA, old client cert) still work against the restarted server
    const oldClient = createClient({ ...first.admin, server: second.url });
    const list = await oldClient.list({ group: '', version: 'v1', resource: 'configmaps', namespace: ns });
    oldClient.close();
    assert.ok(list.ok, list.ok ? '' : list.error.message);
    const present = new Set(list.value.items.map((o) => o.metadata?.name));
    const lost = acknowledged.filter((n) => !present.has(n));
    assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged creates lost`);
    for (const o of list.value.items) assert.match(o.metadata?.name ?? '', /^cm-\d+-\d+$/);
  } finally {
    const exit = await second.stop();
    assert.deepEqual(exit, { code: 0, signal: null }, 'SIGTERM exits 0');
  }

  // a graceful stop leaves a store the next start opens with the same data
  const third = await startServerProcess({ dataDir, keepDataDir: true, extraArgs: withoutRootCa });
  try {
    const r = await call(third.client, 'GET', `/api/v1/namespaces/${ns}/configmaps/${acknowledged[0]}`);
    assert.equal(r.status, 200, r.text);
  } finally {
    assert.equal((await third.stop()).code, 0);
  }
});
