import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Authorizer } from '../../request/authorizer.js';
import { csrTestSetup } from '../../testing/csr-test-setup.js';
import { until } from '../../testing/until.js';
import { startCsrApprovingController } from './csr-approving-controller.js';

/** Allows `create` on the listed CSR subresources to the listed users. */
function authorizer(grants: Record<string, string[]>, asked: string[]): Authorizer {
  return {
    name: 'test',
    async authorize({ user, info }) {
      asked.push(`${user.username} ${info.verb} ${info.resource}/${info.subresource}`);
      const ok = info.verb === 'create' && info.resource === 'certificatesigningrequests' && (grants[user.username] ?? []).includes(info.subresource);
      return { decision: ok ? 'allow' : 'no-opinion' };
    },
  };
}

test('node client requests are approved for requesters with nodeclient or selfnodeclient; others wait', async () => {
  const s = await csrTestSetup();
  const asked: string[] = [];
  const grants: Record<string, string[]> = { 'system:bootstrap:abcdef': ['nodeclient'], 'system:node:n2': ['selfnodeclient'] };
  const ctl = startCsrApprovingController({ registry: s.registry, names: s.names, retryMs: 20, config: { authorizer: authorizer(grants, asked) } });
  const node = (n: string) => ({ commonName: `system:node:${n}`, organizations: ['system:nodes'] });
  const usages = ['key encipherment', 'digital signature', 'client auth'];
  const as = (username: string) => ({ user: { username, groups: ['system:authenticated'] } });
  const approved = async (name: string) => ((await s.get(name))?.status?.conditions ?? []).find((c) => c.type === 'Approved');
  try {
    await s.createCsr('bootstrap', 'svc.io/api-client-node', usages, node('n1'), as('system:bootstrap:abcdef'));
    await s.createCsr('renewal', 'svc.io/api-client-node', usages, node('n2'), as('system:node:n2'));
    await s.createCsr('stranger', 'svc.io/api-client-node', usages, node('n3'), as('mallory'));
    await s.createCsr('not-a-node', 'svc.io/api-client-node', usages, { commonName: 'jane' }, as('system:bootstrap:abcdef'));
    await s.createCsr('other-signer', 'svc.io/api-client', ['client auth'], node('n1'), as('system:bootstrap:abcdef'));
    await until('bootstrap approved', async () => (await approved('bootstrap')) !== undefined);
    await until('renewal approved', async () => (await approved('renewal')) !== undefined);
    const first = (await approved('bootstrap'))!;
    assert.equal(first.reason, 'AutoApproved');
    assert.equal(first.message, 'Auto approving node client certificate after SubjectAccessReview.');
    assert.equal((await approved('renewal'))!.message, 'Auto approving self node client certificate after SubjectAccessReview.');
    assert.ok(asked.includes('mallory create certificatesigningrequests/nodeclient'));
    for (const name of ['stranger', 'not-a-node', 'other-signer']) assert.equal(await approved(name), undefined, name);
    // A permission granted later approves a request that waited.
    grants['mallory'] = ['nodeclient'];
    await until('stranger approved once allowed', async () => (await approved('stranger')) !== undefined, 5000);
  } finally {
    await ctl.stop();
  }
});
