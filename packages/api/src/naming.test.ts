import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, parseFlavour, renamedGroupKeys, upstreamGroupKey } from './naming.js';

test('svc flavour renames groups, namespaces, media type and domains', () => {
  const n = namesFor('svc');
  assert.equal(n.group('coordination'), 'coordination.svc.io');
  assert.equal(n.group('rbac.authorization'), 'rbac.authorization.svc.io');
  assert.equal(n.group('apps'), 'apps');
  assert.equal(n.group(''), '');
  assert.equal(n.name('systemNamespace'), 'svc-system');
  assert.equal(n.name('publicNamespace'), 'svc-public');
  assert.equal(n.name('nodeLeaseNamespace'), 'svc-node-lease');
  assert.equal(n.name('protobufMediaType'), 'application/vnd.svc.protobuf');
  assert.equal(n.name('signerApiClient'), 'svc.io/api-client');
  assert.equal(n.name('rootCaConfigMap'), 'svc-root-ca.crt');
  assert.equal(n.name('serviceAccountMountPath'), '/var/run/secrets/svc.io/serviceaccount');
  assert.equal(n.name('execInfoEnv'), 'SVC_EXEC_INFO');
  assert.equal(n.domain('service-account-token'), 'svc.io/service-account-token');
  assert.equal(n.domain('not-ready', 'node'), 'node.svc.io/not-ready');
  assert.deepEqual(n.immortalNamespaces, ['default', 'svc-system', 'svc-public']);
});

test('k8s flavour gives every name back its Kubernetes form', () => {
  const n = namesFor('k8s');
  assert.equal(n.group('coordination'), 'coordination.k8s.io');
  assert.equal(n.group('flowcontrol.apiserver'), 'flowcontrol.apiserver.k8s.io');
  assert.equal(n.name('systemNamespace'), 'kube-system');
  assert.equal(n.name('protobufMediaType'), 'application/vnd.kubernetes.protobuf');
  assert.equal(n.name('signerApiClientNode'), 'kubernetes.io/kube-apiserver-client-kubelet');
  assert.equal(n.name('serviceAccountMountPath'), '/var/run/secrets/kubernetes.io/serviceaccount');
  assert.equal(n.domain('metadata.name'), 'kubernetes.io/metadata.name');
  assert.deepEqual(n.immortalNamespaces, ['default', 'kube-system', 'kube-public']);
});

test('groupKey inverts group in both flavours', () => {
  for (const flavour of ['svc', 'k8s'] as const) {
    const n = namesFor(flavour);
    for (const key of [...renamedGroupKeys, 'apps', 'batch', '', 'example.com']) {
      assert.equal(n.groupKey(n.group(key)), key);
    }
  }
  // a group that merely ends like a renamed one keeps its name
  assert.equal(namesFor('svc').groupKey('widgets.svc.io'), 'widgets.svc.io');
});

test('fromUpstream rewrites upstream names into the flavour', () => {
  const svc = namesFor('svc');
  assert.equal(svc.fromUpstream('coordination.k8s.io'), 'coordination.svc.io');
  assert.equal(svc.fromUpstream('kube-system'), 'svc-system');
  assert.equal(svc.fromUpstream('kubernetes.io/service-account-token'), 'svc.io/service-account-token');
  assert.equal(svc.fromUpstream('node.kubernetes.io/not-ready'), 'node.svc.io/not-ready');
  assert.equal(svc.fromUpstream('apps'), 'apps');
  assert.equal(svc.fromUpstream('example.k8s.io'), 'example.k8s.io');
  const k8s = namesFor('k8s');
  assert.equal(k8s.fromUpstream('coordination.k8s.io'), 'coordination.k8s.io');
  assert.equal(k8s.fromUpstream('kubernetes.io/service-account-token'), 'kubernetes.io/service-account-token');
  assert.equal(upstreamGroupKey('rbac.authorization.k8s.io'), 'rbac.authorization');
});

test('parseFlavour accepts the two flavours only', () => {
  assert.equal(parseFlavour('svc'), 'svc');
  assert.equal(parseFlavour('k8s'), 'k8s');
  assert.equal(parseFlavour('kubernetes'), undefined);
});
