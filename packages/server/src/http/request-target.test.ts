import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestTarget } from './request-target.js';

/** What the URL parser makes of a target (the reference the fast path must agree with). */
function viaUrl(raw: string): { pathname: string; query: [string, string][] } {
  const url = new URL(raw, 'https://placeholder');
  return { pathname: url.pathname, query: [...url.searchParams] };
}

test('request targets read as the URL parser reads them', () => {
  const targets = [
    '/', '/api/v1/namespaces/bench/configmaps', '/api/v1/namespaces/bench/configmaps?fieldManager=me&dryRun=All',
    '/apis/apps/v1/deployments?labelSelector=a%3Db,c!=d&limit=5', '/api/v1/pods?watch=1&resourceVersion=10&x=a+b',
    '/a/./b', '/a/../b', '/a/%2e%2E/b', '/a/.%2e', '/.', '/..', '/a/b/.', '/a.b/..c/...', '//evil/x', '/a\\b', '/a b',
    '/a%20b?q=%zz', '/a?q=a b', "/a?q='x'", '/a?q=1#frag', '/a#frag', '/é?q=é', '/a\tb', '/a?', '/a??b=c', '/a?=x&&y',
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
