import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestTarget } from './request-target.js';

/** What the URL parser makes of a target, its path percent-decoded (the reference the fast path must agree with). */
function viaUrl(raw: string): { pathname: string; query: [string, string][] } {
  const url = new URL(raw, 'https://placeholder');
  return { pathname: decodeURIComponent(url.pathname), query: [...url.searchParams] };
}

test('request targets read as the URL parser reads them', () => {
  const targets = [
    '/', '/api/v1/namespaces/bench/configmaps', '/api/v1/namespaces/bench/configmaps?fieldManager=me&dryRun=All',
    '/apis/apps/v1/deployments?labelSelector=a%3Db,c!=d&limit=5', '/api/v1/pods?watch=1&resourceVersion=10&x=a+b',
    '/a/./b', '/a/../b', '/a/%2e%2E/b', '/a/.%2e', '/.', '/..', '/a/b/.', '/a.b/..c/...', '//evil/x', '/a\\b', '/a b',
    '/a%20b?q=%zz', '/apis/rbac/v1/clusterroles/system%3Aview', '/a%2Fb', '/%C3%A9', '/a?q=a b', "/a?q='x'", '/a?q=1#frag', '/a#frag', '/é?q=é', '/a\tb', '/a?', '/a??b=c', '/a?=x&&y',
    '/api/v1/namespaces/{x}/pods', '/a|b^c[d]', '/a?q=<x>',
  ];
  for (const raw of targets) {
    const got = parseRequestTarget(raw)!;
    assert.deepEqual({ pathname: got.pathname, query: [...got.searchParams] }, viaUrl(raw), raw);
  }
});

test('dot segments and scheme-relative targets are resolved, not taken as they are', () => {
  assert.equal(parseRequestTarget('/api/v1/../version')?.pathname, '/api/version');
  assert.equal(parseRequestTarget('//host/path')?.pathname, '/path');
});

test('a target the URL parser refuses is no target, not a throw', () => {
  for (const raw of ['//', '//[', '//a:b:c/x', '//%zz/x', 'http://', '//host:99999/']) {
    assert.equal(parseRequestTarget(raw), undefined, raw);
  }
});

test('the path is percent-decoded as Go decodes URL.Path; a malformed escape makes no target', () => {
  assert.equal(parseRequestTarget('/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Aaggregate-to-edit')?.pathname,
    '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregate-to-edit');
  assert.equal(parseRequestTarget('/api/v1/namespaces/a%2Fb')?.pathname, '/api/v1/namespaces/a/b');
  assert.equal(parseRequestTarget('/x/%FF')?.pathname, '/x/\uFFFD');
  for (const raw of ['/a%zz', '/a%', '/a%4', '/a%zz?q=1']) assert.equal(parseRequestTarget(raw), undefined, raw);
});
