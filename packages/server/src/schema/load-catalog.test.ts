import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import type { ApiResource, Catalog } from './catalog.js';
import { loadCatalog } from './load-catalog.js';

function find(catalog: Catalog, groupKey: string, version: string, resource: string): ApiResource {
  const r = catalog.resources.find((x) => x.groupKey === groupKey && x.version === version && x.resource === resource);
  assert.ok(r, `${groupKey}/${version}/${resource}`);
  return r;
}

describe('loadCatalog', () => {
  const svc = loadCatalog(namesFor('svc'));
  const k8s = loadCatalog(namesFor('k8s'));

  it('holds every 1.27 built-in group-version', () => {
    const gvs = new Set(svc.resources.map((r) => `${r.group}/${r.version}`));
    assert.equal(gvs.size, 29);
    assert.equal(svc.resources.length, 70);
    assert.ok(gvs.has('/v1') && gvs.has('apps/v1') && gvs.has('coordination.svc.io/v1') && gvs.has('resource.svc.io/v1alpha2'));
  });

  it('serves renamed groups in the flavour and keeps the neutral key', () => {
    const lease = find(svc, 'coordination', 'v1', 'leases');
    assert.equal(lease.group, 'coordination.svc.io');
    assert.equal(find(k8s, 'coordination', 'v1', 'leases').group, 'coordination.k8s.io');
    assert.equal(find(svc, 'apps', 'v1', 'deployments').group, 'apps');
    assert.equal(find(svc, 'flowcontrol.apiserver', 'v1beta3', 'flowschemas').group, 'flowcontrol.apiserver.svc.io');
    assert.ok(!svc.resources.some((r) => r.group.endsWith('.k8s.io')));
  });

  it('derives kind, scope, verbs and schema from the OpenAPI paths', () => {
    const cm = find(svc, '', 'v1', 'configmaps');
    assert.deepEqual({ ...cm, subresources: [...cm.subresources] }, {
      groupKey: '', group: '', version: 'v1', resource: 'configmaps', singularName: 'configmap', kind: 'ConfigMap',
      listKind: 'ConfigMapList', namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'], categories: [], subresources: [], schemaName: 'io.k8s.api.core.v1.ConfigMap',
    });
    const ns = find(svc, '', 'v1', 'namespaces');
    assert.equal(ns.namespaced, false);
    assert.ok(!ns.verbs.includes('deletecollection'));
    assert.deepEqual(ns.subresources.map((s) => [s.name, s.verbs.join(',')]), [['finalize', 'update'], ['status', 'get,patch,update']]);
    const review = find(svc, 'authorization', 'v1', 'selfsubjectaccessreviews');
    assert.deepEqual(review.verbs, ['create']);
    assert.equal(review.schemaName, 'io.k8s.api.authorization.v1.SelfSubjectAccessReview');
    assert.equal(find(svc, 'authorization', 'v1', 'localsubjectaccessreviews').namespaced, true);
  });

  it('lists subresources with their kinds, foreign groups renamed, and connect verbs', () => {
    const pods = find(svc, '', 'v1', 'pods');
    assert.deepEqual(pods.shortNames, ['po']);
    assert.deepEqual(pods.categories, ['all']);
    const sub = Object.fromEntries(pods.subresources.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(sub), ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'status']);
    assert.deepEqual(sub['eviction'], { name: 'eviction', kind: 'Eviction', verbs: ['create'], group: 'policy', version: 'v1', schemaName: 'io.k8s.api.policy.v1.Eviction' });
    assert.deepEqual(sub['exec']?.verbs, ['create', 'get']);
    assert.equal(sub['exec']?.kind, 'PodExecOptions');
    assert.deepEqual(sub['proxy']?.verbs, ['create', 'delete', 'get', 'patch', 'update']);
    const token = find(svc, '', 'v1', 'serviceaccounts').subresources.find((s) => s.name === 'token');
    assert.equal(token?.group, 'authentication.svc.io');
    assert.equal(find(k8s, '', 'v1', 'serviceaccounts').subresources.find((s) => s.name === 'token')?.group, 'authentication.k8s.io');
    const scale = find(svc, 'apps', 'v1', 'deployments').subresources.find((s) => s.name === 'scale');
    assert.deepEqual(scale, { name: 'scale', kind: 'Scale', verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', schemaName: 'io.k8s.api.autoscaling.v1.Scale' });
  });

  it('carries short names and categories', () => {
    assert.deepEqual(find(svc, 'apps', 'v1', 'deployments').shortNames, ['deploy']);
    assert.deepEqual(find(svc, 'apiextensions', 'v1', 'customresourcedefinitions').shortNames, ['crd', 'crds']);
    assert.deepEqual(find(svc, 'apiextensions', 'v1', 'customresourcedefinitions').categories, ['api-extensions']);
    assert.deepEqual(find(svc, 'events', 'v1', 'events').shortNames, ['ev']);
    assert.deepEqual(find(svc, 'coordination', 'v1', 'leases').shortNames, []);
  });

  it('has a schema for every resource kind', () => {
    for (const r of svc.resources) {
      const v = svc.validator.validate(r.schemaName, {});
      assert.ok(!v.errors.some((e) => e.type === 'InternalError'), r.schemaName);
    }
  });
});
