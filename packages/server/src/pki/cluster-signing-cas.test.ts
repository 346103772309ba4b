import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { createCa } from './certificates.js';
import { clusterSigningFlagsProblem, loadClusterSigningCas, type ClusterSigningFlags } from './cluster-signing-cas.js';

const none = { certFile: '', keyFile: '' };
const flags = (over: Partial<ClusterSigningFlags>): ClusterSigningFlags => ({
  all: none, apiClient: none, apiClientNode: none, nodeServing: none, legacyUnknown: none, ...over,
});

test('flag combinations kube refuses', () => {
  assert.equal(clusterSigningFlagsProblem(flags({})), undefined);
  assert.equal(clusterSigningFlagsProblem(flags({ all: { certFile: 'a', keyFile: 'b' }, nodeServing: { certFile: 'c', keyFile: 'd' } })),
    'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
  assert.equal(clusterSigningFlagsProblem(flags({ apiClient: { certFile: 'a', keyFile: '' } })),
    '--cluster-signing-kube-apiserver-client-{cert,key}-file: cannot specify key without cert or cert without key');
});

test('each signer gets its own pair, the shared pair, or the generated CA', async (t) => {
  const dir = tempDir(t, 'signing-cas-');
  const [generated, shared, serving] = await Promise.all([createCa('generated'), createCa('shared'), createCa('serving')]);
  writeFileSync(join(dir, 'shared.crt'), shared.certPem);
  writeFileSync(join(dir, 'shared.key'), shared.keyPem);
  writeFileSync(join(dir, 'serving.crt'), serving.certPem);
  writeFileSync(join(dir, 'serving.key'), serving.keyPem);
  const names = namesFor('svc');
  const byDefault = await loadClusterSigningCas(flags({}), names, generated);
  assert.ok(byDefault.ok);
  assert.deepEqual([...byDefault.value.keys()], ['svc.io/api-client', 'svc.io/api-client-node', 'svc.io/node-serving', 'svc.io/legacy-unknown']);
  for (const ca of byDefault.value.values()) assert.equal(ca.certPem, generated.certPem);
  const all = await loadClusterSigningCas(flags({ all: { certFile: join(dir, 'shared.crt'), keyFile: join(dir, 'shared.key') } }), names, generated);
  assert.ok(all.ok);
  for (const ca of all.value.values()) assert.equal(ca.certPem, shared.certPem);
  const perSigner = await loadClusterSigningCas(flags({ nodeServing: { certFile: join(dir, 'serving.crt'), keyFile: join(dir, 'serving.key') } }), names, generated);
  assert.ok(perSigner.ok);
  assert.equal(perSigner.value.get('svc.io/node-serving')?.certPem, serving.certPem);
  assert.equal(perSigner.value.get('svc.io/api-client')?.certPem, generated.certPem);
  const mismatched = await loadClusterSigningCas(flags({ all: { certFile: join(dir, 'shared.crt'), keyFile: join(dir, 'serving.key') } }), names, generated);
  assert.deepEqual(mismatched.ok ? '' : mismatched.error, `--cluster-signing-cert-file: ${join(dir, 'shared.crt')}, ${join(dir, 'serving.key')}: the CA private key does not match its certificate`);
});
