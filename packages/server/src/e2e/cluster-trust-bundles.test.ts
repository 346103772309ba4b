/**
 * ClusterTrustBundles end to end, as kube-apiserver 1.27 serves the alpha API (`certificates.svc.io/v1alpha1`
 * enabled with `--runtime-config` and the `ClusterTrustBundle` feature gate on): validation of names and bundles,
 * the field selector on `spec.signerName`, and the ClusterTrustBundleAttest admission plugin asking for `attest` on
 * the signer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCa, issueLeaf } from '../pki/certificates.js';
import { call } from './http.js';
import { serverForFile } from './server-process.js';

const server = serverForFile({ extraArgs: ['--runtime-config=certificates.svc.io/v1alpha1=true', '--feature-gates=ClusterTrustBundle=true'] });
const bundles = '/apis/certificates.svc.io/v1alpha1/clustertrustbundles';
const rbac = '/apis/rbac.authorization.svc.io/v1';
const asJane = { 'impersonate-user': 'jane' };

const bundle = (name: string, trustBundle: string, signerName?: string) => ({
  apiVersion: 'certificates.svc.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name },
  spec: { trustBundle, ...(signerName === undefined ? {} : { signerName }) },
});

/** Grants jane `rules` under the role `name`. */
async function grant(name: string, rules: unknown[]): Promise<void> {
  const client = server().client;
  assert.equal((await call(client, 'POST', `${rbac}/clusterroles`, { metadata: { name }, rules })).status, 201);
  assert.equal((await call(client, 'POST', `${rbac}/clusterrolebindings`, {
    metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name },
    subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'User', name: 'jane' }],
  })).status, 201);
}

test('validation: names follow the signer, bundles hold distinct CA certificates; the signer cannot change', async () => {
  const client = server().client;
  const ca = await createCa('bundle-ca');
  const leaf = await issueLeaf(ca, { commonName: 'leaf', usage: 'client' });
  const created = await call(client, 'POST', bundles, bundle('example.com:foo:one', ca.certPem, 'example.com/foo'));
  assert.equal(created.status, 201, created.text);
  const wrongName = await call(client, 'POST', bundles, bundle('one', ca.certPem, 'example.com/foo'));
  assert.equal(wrongName.status, 422);
  assert.equal(wrongName.body.message, 'ClusterTrustBundle.certificates.svc.io "one" is invalid: metadata.name: Invalid value: "one": '
    + 'ClusterTrustBundle for signerName example.com/foo must be named with prefix example.com:foo:');
  const notCa = await call(client, 'POST', bundles, bundle('plain', leaf.certPem));
  assert.equal(notCa.status, 422);
  assert.equal(notCa.body.message, 'ClusterTrustBundle.certificates.svc.io "plain" is invalid: spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set');
  const current = created.body;
  const moved = await call(client, 'PUT', `${bundles}/example.com:foo:one`, { ...current, spec: { ...current.spec, signerName: 'example.com/bar' } });
  assert.equal(moved.status, 422);
  assert.match(moved.body.message, /spec\.signerName: Invalid value: "example\.com\/bar": field is immutable/);
  const unconditional = await call(client, 'PUT', `${bundles}/example.com:foo:one`, { ...current, metadata: { name: current.metadata.name } });
  assert.equal(unconditional.status, 422, 'an update must name the resourceVersion it replaces');
  assert.equal((await call(client, 'POST', bundles, bundle('plain', ca.certPem))).status, 201);
  const selected = await call(client, 'GET', `${bundles}?fieldSelector=spec.signerName%3Dexample.com%2Ffoo`);
  assert.deepEqual(selected.body.items.map((b: { metadata: { name: string } }) => b.metadata.name), ['example.com:foo:one']);
});

test('ClusterTrustBundleAttest: a bundle naming a signer needs attest on it', async () => {
  const client = server().client;
  const ca = await createCa('attest-ca');
  await grant('bundle-writer', [{ apiGroups: ['certificates.svc.io'], resources: ['clustertrustbundles'], verbs: ['create'] }]);
  const refused = await call(client, 'POST', bundles, bundle('example.com:att:one', ca.certPem, 'example.com/att'), asJane);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.message, 'clustertrustbundles.certificates.svc.io "example.com:att:one" is forbidden: user not permitted to attest for signerName "example.com/att"');
  assert.equal((await call(client, 'POST', bundles, bundle('jane-plain', ca.certPem), asJane)).status, 201, 'no signer, no attest needed');
  await grant('bundle-attester', [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['attest'] }]);
  const allowed = await call(client, 'POST', bundles, bundle('example.com:att:one', ca.certPem, 'example.com/att'), asJane);
  assert.equal(allowed.status, 201, allowed.text);
});
