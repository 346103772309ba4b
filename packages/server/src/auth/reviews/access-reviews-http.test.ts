/**
 * The access reviews over HTTPS: an in-process API server (the real filter chain, decoding, negotiation and
 * resource handler) whose authorizer is a stand-in that decides by user, so answers can be checked end to end.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { createAdmissionChain } from '../../admission/chain.js';
import { startApiServer, type ApiServer } from '../../http/api-server.js';
import { resourceHandler } from '../../http/handlers/resource-handler.js';
import { virtualKey } from '../../registry/virtual-resource.js';
import { createRegistry } from '../../registry/registry.js';
import { loadCatalog } from '../../schema/load-catalog.js';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import type { Authorizer } from '../../request/authorizer.js';
import { localSubjectAccessReview } from './local-subject-access-review.js';
import { selfSubjectAccessReview } from './self-subject-access-review.js';
import { selfSubjectRulesReview } from './self-subject-rules-review.js';
import { subjectAccessReview } from './subject-access-review.js';

const names = namesFor('svc');
const base = '/apis/authorization.svc.io/v1';

/** Masters may do anything; `dave` may only read pods; everyone else gets no opinion. */
const authorizer: Authorizer = {
  name: 'by-user',
  async authorize({ user, info }) {
    if (user.groups.includes('system:masters')) return { decision: 'allow', reason: 'master' };
    if (user.username === 'dave' && info.resource === 'pods' && ['get', 'list', 'watch'].includes(info.verb)) return { decision: 'allow', reason: 'dave reads pods' };
    if (user.username === 'dave') return { decision: 'deny', reason: 'dave is read-only' };
    return { decision: 'no-opinion' };
  },
};

let server: ApiServer;
const dir = tempDir({ after }, 'access-reviews-');
before(async () => {
  const admission = createAdmissionChain({ names });
  if (!admission.ok) throw new Error(admission.error.message);
  const registry = createRegistry({ backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: admission.value });
  server = await startApiServer({
    dataDir: dir, bindAddress: '127.0.0.1', port: 0, tlsSans: [], names, maxRequestBodyBytes: 1 << 20,
    livezGracePeriodMs: 0, shutdownDelayMs: 0, log: () => {}, checks: [], readyChecks: [],
    resources: () => registry.all(),
    authorizer,
    resourceHandler: resourceHandler(registry, new Map([
      [virtualKey('authorization', 'v1', 'subjectaccessreviews'), subjectAccessReview(authorizer)],
      [virtualKey('authorization', 'v1', 'localsubjectaccessreviews'), localSubjectAccessReview(authorizer)],
      [virtualKey('authorization', 'v1', 'selfsubjectaccessreviews'), selfSubjectAccessReview(authorizer)],
      [virtualKey('authorization', 'v1', 'selfsubjectrulesreviews'), selfSubjectRulesReview(authorizer)],
    ]), undefined, authorizer),
  });
});
after(async () => {
  await server?.close();
});

/** One request as the admin (client certificate of `system:masters`). */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${path}`, {
      method, ca: server.ca, cert: server.adminCert, key: server.adminKey, agent: false,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test('a SubjectAccessReview POST answers 201 with the review and its status, allowed or not', async () => {
  const review = (verb: string) => ({
    apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview',
    spec: { user: 'dave', resourceAttributes: { namespace: 'team', verb, resource: 'pods' } },
  });
  const allowed = await call('POST', `${base}/subjectaccessreviews`, review('list'));
  assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
  assert.deepEqual(allowed.body, {
    apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null },
    spec: { user: 'dave', resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' } },
    status: { allowed: true, reason: 'dave reads pods' },
  });
  const denied = await call('POST', `${base}/subjectaccessreviews`, review('delete'));
  assert.equal(denied.status, 201);
  assert.deepEqual(denied.body['status'], { allowed: false, denied: true, reason: 'dave is read-only' });
});

test('a SelfSubjectAccessReview is about the caller; a LocalSubjectAccessReview about its namespace', async () => {
  const self = await call('POST', `${base}/selfsubjectaccessreviews`, {
    apiVersion: 'authorization.svc.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/metrics', verb: 'get' } },
  });
  assert.equal(self.status, 201, JSON.stringify(self.body));
  assert.deepEqual(self.body['status'], { allowed: true, reason: 'master' });
  const local = await call('POST', `${base}/namespaces/team/localsubjectaccessreviews`, {
    apiVersion: 'authorization.svc.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'erin', resourceAttributes: { verb: 'get', resource: 'pods' } },
  });
  assert.equal(local.status, 201, JSON.stringify(local.body));
  assert.deepEqual(local.body['metadata'], { namespace: 'team', creationTimestamp: null });
  assert.deepEqual(local.body['status'], { allowed: false });
});

test('a review with neither attribute set is 422; other verbs are 405', async () => {
  const invalid = await call('POST', `${base}/subjectaccessreviews`, { apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', spec: { user: 'dave' } });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body['reason'], 'Invalid');
  assert.equal((await call('GET', `${base}/subjectaccessreviews`)).status, 405);
  assert.equal((await call('DELETE', `${base}/selfsubjectrulesreviews/x`)).status, 405);
});

test('a SelfSubjectRulesReview over an authorizer that cannot list rules is incomplete', async () => {
  const r = await call('POST', `${base}/selfsubjectrulesreviews`, { apiVersion: 'authorization.svc.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(r.body['status'], { resourceRules: [], nonResourceRules: [], incomplete: true });
});
