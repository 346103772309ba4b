import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import type { AdmissionAttributes } from '../plugin.js';
import type { ServiceAccountReader } from './plugin-initializers.js';
import { serviceAccountPlugin, tokenVolumeSource } from './service-account.js';

const names = namesFor('svc');
const user = { username: 'u', groups: [] };
const mountPath = '/var/run/secrets/svc.io/serviceaccount';

function reader(accounts: Record<string, KubeObject>, calls: string[] = []): ServiceAccountReader {
  return async (namespace, name, { cached }) => {
    calls.push(`${cached ? 'cache' : 'live'} ${namespace}/${name}`);
    return { ok: true, value: structuredClone(accounts[`${namespace}/${name}`]) };
  };
}

function plugin(accounts: Record<string, KubeObject>, calls: string[] = []) {
  const p = serviceAccountPlugin(names, { retryDelayMs: () => 0, defaultAttempts: 3 });
  p.setServiceAccountReader(reader(accounts, calls));
  return p;
}

function create(pod: KubeObject, subresource = ''): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource, kind: 'Pod', namespace: 'ns',
    name: pod.metadata?.name ?? '', object: pod, dryRun: false, user,
  };
}

const account = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns' }, ...extra });
const podOf = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...meta }, spec });
type Spec = { serviceAccountName?: string; volumes?: { name: string; projected?: unknown }[]; containers: { volumeMounts?: unknown[] }[]; initContainers?: { volumeMounts?: unknown[] }[]; imagePullSecrets?: unknown[] };

test('default account, projected token volume mounted read-only in every container and init container', async () => {
  const p = plugin({ 'ns/default': account('default') });
  const pod = podOf({
    initContainers: [{ name: 'init', image: 'i' }],
    containers: [{ name: 'a', image: 'a' }, { name: 'b', image: 'b', volumeMounts: [{ name: 'own', mountPath }] }],
    volumes: [{ name: 'own', emptyDir: {} }],
  });
  const attrs = create(pod);
  assert.deepEqual(await p.admit!(attrs), { allowed: true });
  assert.deepEqual(await p.validate!(attrs), { allowed: true });
  const spec = pod.spec as Spec;
  assert.equal(spec.serviceAccountName, 'default');
  const volume = spec.volumes!.find((v) => v.name.startsWith('kube-api-access-'))!;
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected, tokenVolumeSource(names));
  assert.deepEqual(volume.projected, {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'svc-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  });
  const mount = { name: volume.name, readOnly: true, mountPath };
  assert.deepEqual(spec.initContainers![0]!.volumeMounts, [mount]);
  assert.deepEqual(spec.containers[0]!.volumeMounts, [mount]);
  assert.deepEqual(spec.containers[1]!.volumeMounts, [{ name: 'own', mountPath }], 'a container with its own mount there keeps it');
});

test('automountServiceAccountToken: false on the Pod or on its account mounts nothing', async () => {
  const cases: [boolean | undefined, boolean | undefined, boolean][] = [
    [undefined, undefined, true], [false, undefined, false], [undefined, false, false], [true, false, false], [false, true, false], [true, true, true],
  ];
  for (const [onPod, onAccount, mounted] of cases) {
    const p = plugin({ 'ns/robot': account('robot', onAccount === undefined ? {} : { automountServiceAccountToken: onAccount }) });
    const pod = podOf({ serviceAccountName: 'robot', containers: [{ name: 'c', image: 'c' }], ...(onPod === undefined ? {} : { automountServiceAccountToken: onPod }) });
    assert.deepEqual(await p.admit!(create(pod)), { allowed: true });
    const spec = pod.spec as Spec;
    assert.equal((spec.volumes ?? []).length > 0, mounted, `pod ${String(onPod)}, account ${String(onAccount)}`);
    assert.equal((spec.containers[0]!.volumeMounts ?? []).length > 0, mounted);
  }
});

test('a missing account is refused in kube words; default is looked for several times, others once', async () => {
  const calls: string[] = [];
  const p = plugin({}, calls);
  const missing = await p.admit!(create(podOf({ serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'c' }] })));
  assert.equal(missing.allowed, false);
  assert.equal(missing.allowed ? '' : missing.status.message, 'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
  assert.equal(missing.allowed ? 0 : missing.status.code, 403);
  assert.deepEqual(calls, ['cache ns/ghost', 'live ns/ghost']);
  calls.length = 0;
  const noDefault = await p.admit!(create(podOf({ containers: [{ name: 'c', image: 'c' }] }, { name: undefined, generateName: 'web-' })));
  assert.equal(noDefault.allowed ? '' : noDefault.status.message, 'pods "web-" is forbidden: error looking up service account ns/default: serviceaccount "default" not found');
  assert.deepEqual(calls, ['cache ns/default', 'live ns/default', 'live ns/default', 'live ns/default']);
});

test('the deprecated serviceAccount alias names the account; image pull secrets copied to a Pod without any', async () => {
  const p = plugin({ 'ns/builder': account('builder', { imagePullSecrets: [{ name: 'registry' }] }) });
  const pod = podOf({ serviceAccount: 'builder', containers: [{ name: 'c', image: 'c' }] });
  assert.deepEqual(await p.admit!(create(pod)), { allowed: true });
  assert.equal((pod.spec as Spec).serviceAccountName, 'builder');
  assert.deepEqual((pod.spec as Spec).imagePullSecrets, [{ name: 'registry' }]);
  const own = podOf({ serviceAccountName: 'builder', imagePullSecrets: [{ name: 'mine' }], containers: [{ name: 'c', image: 'c' }] });
  await p.admit!(create(own));
  assert.deepEqual((own.spec as Spec).imagePullSecrets, [{ name: 'mine' }]);
});

test('mirror pods are left as they are, and may not use accounts, secrets or token projections', async () => {
  const p = plugin({ 'ns/default': account('default') });
  const mirror = { 'svc.io/config.mirror': 'abc' };
  const plain = podOf({ containers: [{ name: 'c', image: 'c' }] }, { annotations: mirror });
  assert.deepEqual(await p.admit!(create(plain)), { allowed: true });
  assert.equal((plain.spec as Spec).serviceAccountName, undefined);
  assert.equal((plain.spec as Spec).volumes, undefined);
  const refusals: [Record<string, unknown>, string][] = [
    [{ serviceAccountName: 'default', containers: [] }, 'a mirror pod may not reference service accounts'],
    [{ containers: [{ name: 'c', image: 'c', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }] }, 'a mirror pod may not reference secrets'],
    [{ containers: [], volumes: [{ name: 'v', secret: { secretName: 's' } }] }, 'a mirror pod may not reference secrets'],
    [{ containers: [], volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
  ];
  for (const [spec, why] of refusals) {
    const r = await p.admit!(create(podOf(spec, { annotations: mirror })));
    assert.equal(r.allowed ? '' : r.status.message, `pods "p" is forbidden: ${why}`);
  }
});

test('an account enforcing mountable secrets limits volumes, env and pull secrets; ephemeral containers too', async () => {
  const enforcing = account('locked', {
    metadata: { name: 'locked', namespace: 'ns', annotations: { 'svc.io/enforce-mountable-secrets': 'true' } },
    secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'pull-ok' }],
  });
  const p = plugin({ 'ns/locked': enforcing });
  const allowed = podOf({ serviceAccountName: 'locked', containers: [{ name: 'c', image: 'c' }], volumes: [{ name: 'v', secret: { secretName: 'ok' } }] });
  assert.deepEqual(await p.admit!(create(allowed)), { allowed: true });
  const cases: [Record<string, unknown>, string][] = [
    [{ volumes: [{ name: 'v', secret: { secretName: 'nope' } }] }, 'volume with secret.secretName="nope" is not allowed because service account locked does not reference that secret'],
    [{ containers: [{ name: 'c', image: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] },
      'container c with envVar E referencing secret.secretName="nope" is not allowed because service account locked does not reference that secret'],
    [{ imagePullSecrets: [{ name: 'pull-nope' }] }, 'imagePullSecrets[0].name="pull-nope" is not allowed because service account locked does not reference that imagePullSecret'],
  ];
  for (const [extra, why] of cases) {
    const r = await p.admit!(create(podOf({ serviceAccountName: 'locked', containers: [{ name: 'c', image: 'c' }], ...extra })));
    assert.equal(r.allowed ? '' : r.status.message, `pods "p" is forbidden: ${why}`);
  }
  const ephemeral = podOf({
    serviceAccountName: 'locked', containers: [{ name: 'c', image: 'c' }],
    ephemeralContainers: [{ name: 'debug', image: 'd', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }],
  });
  const update: AdmissionAttributes = { ...create(ephemeral, 'ephemeralcontainers'), operation: 'UPDATE', oldObject: allowed };
  const r = await p.validate!(update);
  assert.equal(r.allowed ? '' : r.status.message,
    'pods "p" is forbidden: ephemeral container debug with envVar E referencing secret.secretName="nope" is not allowed because service account locked does not reference that secret');
});

test('other resources, subresources and updates of Pods are not touched', async () => {
  const p = plugin({});
  const cm: AdmissionAttributes = { ...create(podOf({ containers: [] })), resource: 'configmaps', kind: 'ConfigMap' };
  assert.deepEqual(await p.admit!(cm), { allowed: true });
  assert.deepEqual([p.actsOn?.('', 'configmaps'), p.actsOn?.('', 'pods')], [false, true], 'the chain skips it for resources other than pods');
  const status: AdmissionAttributes = { ...create(podOf({ containers: [] }), 'status'), operation: 'UPDATE' };
  assert.deepEqual(await p.admit!(status), { allowed: true });
  assert.deepEqual(await p.validate!(status), { allowed: true });
  const update: AdmissionAttributes = { ...create(podOf({ containers: [] })), operation: 'UPDATE' };
  assert.deepEqual(await p.validate!(update), { allowed: true });
});
