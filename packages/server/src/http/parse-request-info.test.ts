import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from './parse-request-info.js';

type Expect = {
  verb: string; apiPrefix?: string; apiGroup?: string; apiVersion?: string; namespace?: string;
  resource?: string; subresource?: string; name?: string; parts?: string[];
};

function check(method: string, url: string, expected: Expect & { isResourceRequest?: boolean }): void {
  const u = new URL(url, 'https://x');
  const r = parseRequestInfo(method, u.pathname, u.searchParams);
  assert.ok(r.ok, `${method} ${url} should parse`);
  const info = r.value;
  const want = {
    isResourceRequest: expected.isResourceRequest ?? true,
    verb: expected.verb,
    apiPrefix: expected.apiPrefix ?? (expected.isResourceRequest === false ? '' : 'api'),
    apiGroup: expected.apiGroup ?? '',
    apiVersion: expected.apiVersion ?? (expected.isResourceRequest === false ? '' : 'v1'),
    namespace: expected.namespace ?? '',
    resource: expected.resource ?? '',
    subresource: expected.subresource ?? '',
    name: expected.name ?? '',
  };
  const got = {
    isResourceRequest: info.isResourceRequest, verb: info.verb, apiPrefix: info.apiPrefix, apiGroup: info.apiGroup,
    apiVersion: info.apiVersion, namespace: info.namespace, resource: info.resource, subresource: info.subresource, name: info.name,
  };
  assert.deepEqual(got, want, `${method} ${url}`);
  if (expected.parts) assert.deepEqual(info.parts, expected.parts, `${method} ${url} parts`);
  assert.equal(info.path, u.pathname);
}

test('core group resource requests (upstream RequestInfoFactory table)', () => {
  check('GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces', parts: ['namespaces'] });
  check('GET', '/api/v1/namespaces/other', { verb: 'get', namespace: 'other', resource: 'namespaces', name: 'other', parts: ['namespaces', 'other'] });
  check('GET', '/api/v1/namespaces/other/pods', { verb: 'list', namespace: 'other', resource: 'pods', parts: ['pods'] });
  check('GET', '/api/v1/namespaces/other/pods/foo', { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo' });
  check('HEAD', '/api/v1/namespaces/other/pods/foo', { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo' });
  check('GET', '/api/v1/pods', { verb: 'list', resource: 'pods' });
  check('GET', '/api/v1/namespaces/other/pods/foo/status', { verb: 'get', namespace: 'other', resource: 'pods', name: 'foo', subresource: 'status', parts: ['pods', 'foo', 'status'] });
  check('POST', '/api/v1/namespaces/other/pods', { verb: 'create', namespace: 'other', resource: 'pods' });
  check('PUT', '/api/v1/namespaces/other/pods/foo', { verb: 'update', namespace: 'other', resource: 'pods', name: 'foo' });
  check('PATCH', '/api/v1/namespaces/other/pods/foo', { verb: 'patch', namespace: 'other', resource: 'pods', name: 'foo' });
  check('DELETE', '/api/v1/namespaces/other/pods/foo', { verb: 'delete', namespace: 'other', resource: 'pods', name: 'foo' });
  check('DELETE', '/api/v1/namespaces/other/pods', { verb: 'deletecollection', namespace: 'other', resource: 'pods' });
  check('POST', '/api/v1/namespaces/other/pods/foo/eviction', { verb: 'create', namespace: 'other', resource: 'pods', name: 'foo', subresource: 'eviction' });
  check('OPTIONS', '/api/v1/pods', { verb: '', resource: 'pods' });
});

test('namespaces as a resource and their subresources', () => {
  check('PUT', '/api/v1/namespaces/ns/status', { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'status' });
  check('PUT', '/api/v1/namespaces/ns/finalize', { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'finalize' });
  check('DELETE', '/api/v1/namespaces/ns', { verb: 'delete', namespace: 'ns', resource: 'namespaces', name: 'ns' });
  check('POST', '/api/v1/namespaces', { verb: 'create', resource: 'namespaces' });
  check('DELETE', '/api/v1/namespaces', { verb: 'deletecollection', resource: 'namespaces' });
  // a namespaced collection named like something else still is namespaced
  check('GET', '/api/v1/namespaces/ns/configmaps/status', { verb: 'get', namespace: 'ns', resource: 'configmaps', name: 'status' });
});

test('named groups', () => {
  check('GET', '/apis/apps/v1/deployments', { verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', resource: 'deployments' });
  check('GET', '/apis/coordination.svc.io/v1/namespaces/n/leases/l', {
    verb: 'get', apiPrefix: 'apis', apiGroup: 'coordination.svc.io', namespace: 'n', resource: 'leases', name: 'l',
  });
  check('PUT', '/apis/apps/v1/namespaces/n/deployments/d/scale', {
    verb: 'update', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'n', resource: 'deployments', name: 'd', subresource: 'scale',
  });
  check('GET', '/apis/extensions/v1beta1/namespaces/other/ingresses', {
    verb: 'list', apiPrefix: 'apis', apiGroup: 'extensions', apiVersion: 'v1beta1', namespace: 'other', resource: 'ingresses',
  });
});

test('watch: query parameter and the deprecated /watch/ paths', () => {
  check('GET', '/api/v1/pods?watch=true', { verb: 'watch', resource: 'pods' });
  check('GET', '/api/v1/pods?watch=1', { verb: 'watch', resource: 'pods' });
  check('GET', '/api/v1/pods?watch=false', { verb: 'list', resource: 'pods' });
  // The parameter codec's boolean: false only for 0 or false (any case), true for anything else.
  check('GET', '/api/v1/pods?watch=yes', { verb: 'watch', resource: 'pods' });
  check('GET', '/api/v1/pods?watch', { verb: 'watch', resource: 'pods' });
  check('GET', '/api/v1/pods?watch=FALSE', { verb: 'list', resource: 'pods' });
  check('GET', '/api/v1/pods?watch=0', { verb: 'list', resource: 'pods' });
  check('GET', '/api/v1/namespaces/n/pods/p?watch=true', { verb: 'watch', namespace: 'n', resource: 'pods', name: 'p' });
  check('GET', '/api/v1/watch/pods', { verb: 'watch', resource: 'pods' });
  check('GET', '/api/v1/watch/namespaces', { verb: 'watch', resource: 'namespaces' });
  check('GET', '/api/v1/watch/namespaces/other', { verb: 'watch', namespace: 'other', resource: 'namespaces', name: 'other' });
  check('GET', '/api/v1/watch/namespaces/other/pods', { verb: 'watch', namespace: 'other', resource: 'pods' });
  check('GET', '/api/v1/watch/namespaces/other/pods/foo', { verb: 'watch', namespace: 'other', resource: 'pods', name: 'foo' });
  check('GET', '/apis/apps/v1/watch/namespaces/n/deployments', {
    verb: 'watch', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'n', resource: 'deployments',
  });
  check('GET', '/api/v1/namespaces/n/pods?fieldSelector=metadata.name%3Dp&watch=true', { verb: 'watch', namespace: 'n', resource: 'pods', name: 'p' });
  check('GET', '/api/v1/namespaces/n/pods?fieldSelector=metadata.name%3D%3Dp', { verb: 'list', namespace: 'n', resource: 'pods', name: 'p' });
  check('GET', '/api/v1/namespaces/n/pods?fieldSelector=metadata.name!%3Dp', { verb: 'list', namespace: 'n', resource: 'pods' });
});

test('a special verb without a resource is an error', () => {
  const r = parseRequestInfo('GET', '/api/v1/watch/', new URLSearchParams());
  assert.equal(r.ok, false);
  assert.equal(parseRequestInfo('GET', '/api/v1/watch', new URLSearchParams()).ok, false);
  const r2 = parseRequestInfo('GET', '/apis/apps/v1/proxy', new URLSearchParams());
  assert.equal(r2.ok, false);
});

test('proxy keeps the rest of the path out of the subresource', () => {
  check('GET', '/api/v1/proxy/namespaces/n/pods/p/a/b', { verb: 'proxy', namespace: 'n', resource: 'pods', name: 'p', parts: ['pods', 'p', 'a', 'b'] });
});

test('non-resource requests', () => {
  check('GET', '/', { isResourceRequest: false, verb: 'get', parts: [] });
  check('GET', '/api', { isResourceRequest: false, verb: 'get', parts: ['api'] });
  check('GET', '/api/v1', { isResourceRequest: false, verb: 'get', parts: ['api', 'v1'] });
  check('GET', '/api/v1/', { isResourceRequest: false, verb: 'get', parts: ['api', 'v1'] });
  check('GET', '/apis', { isResourceRequest: false, verb: 'get' });
  check('GET', '/apis/apps', { isResourceRequest: false, verb: 'get' });
  check('GET', '/apis/apps/v1', { isResourceRequest: false, verb: 'get', parts: ['apis', 'apps', 'v1'] });
  check('POST', '/apis/apps/v1', { isResourceRequest: false, verb: 'post' });
  check('GET', '/healthz', { isResourceRequest: false, verb: 'get' });
  check('GET', '/livez/ping', { isResourceRequest: false, verb: 'get', parts: ['livez', 'ping'] });
  check('GET', '/openapi/v3/apis/apps/v1', { isResourceRequest: false, verb: 'get' });
  check('DELETE', '/version', { isResourceRequest: false, verb: 'delete' });
  check('GET', '/other/a/b/c', { isResourceRequest: false, verb: 'get' });
});
