import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { applyRuntimeConfig, parseRuntimeConfig } from './runtime-config.js';
import { versionLevel } from './version-level.js';
import { optionalResources, servedResources, type ServedResource } from './served-resources.js';

const names = namesFor('svc');
const candidates = [...servedResources, ...optionalResources];
const defaults = new Set(servedResources);

function served(entries: string[]): string[] | string {
  const parsed = parseRuntimeConfig(entries);
  if (!parsed.ok) return parsed.error;
  const r = applyRuntimeConfig(candidates, (c: ServedResource) => defaults.has(c), parsed.value, names);
  return r.ok ? r.value.map((c) => `${c.groupKey}/${c.version}/${c.resource}`) : r.error;
}

test('runtime-config: alpha versions are off until enabled', () => {
  const none = served([]) as string[];
  assert.ok(none.includes('authentication/v1/tokenreviews'));
  assert.ok(!none.includes('authentication/v1alpha1/selfsubjectreviews'));
  assert.ok((served(['authentication.svc.io/v1alpha1=true']) as string[]).includes('authentication/v1alpha1/selfsubjectreviews'));
  assert.ok((served(['authentication.svc.io/v1alpha1']) as string[]).includes('authentication/v1alpha1/selfsubjectreviews'), 'a missing value means true');
  assert.ok((served(['api/alpha=true']) as string[]).includes('authentication/v1alpha1/selfsubjectreviews'));
  assert.ok((served(['api/all=true']) as string[]).includes('authentication/v1alpha1/selfsubjectreviews'));
  assert.ok((served(['authentication.svc.io/v1alpha1/selfsubjectreviews=true']) as string[]).includes('authentication/v1alpha1/selfsubjectreviews'));
});

test('runtime-config: disabling versions and resources, narrower entries win', () => {
  const noCoordination = served(['coordination.svc.io/v1=false']) as string[];
  assert.ok(!noCoordination.includes('coordination/v1/leases'));
  const noCore = served(['v1=false']) as string[];
  assert.ok(!noCore.includes('/v1/pods'));
  assert.ok(noCore.includes('coordination/v1/leases'));
  const onlyPods = served(['api/all=false', 'v1/pods=true']) as string[];
  assert.deepEqual(onlyPods, ['/v1/pods']);
  assert.ok(!(served(['api/v1/configmaps=false']) as string[]).includes('/v1/configmaps'));
});

test('runtime-config: bad entries are errors', () => {
  assert.match(served(['authentication.svc.io/v1alpha1=maybe']) as string, /must be true or false/);
  assert.match(served(['nope.example/v1=true']) as string, /unknown api group version/);
  assert.match(served(['authentication.k8s.io/v1alpha1=true']) as string, /unknown/, 'the svc flavour does not know k8s names');
  assert.equal(versionLevel('v2beta3'), 'beta');
  assert.equal(versionLevel('v1alpha1'), 'alpha');
  assert.equal(versionLevel('v1'), 'ga');
});
