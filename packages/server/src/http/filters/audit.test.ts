import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { requestRecorder } from '../../admission/recorder.js';
import { createAuditor } from '../../audit/auditor.js';
import type { AuditBackend } from '../../audit/backend.js';
import type { AuditEvent } from '../../audit/event.js';
import { parsePolicy } from '../../audit/policy.js';
import { fakeContext } from '../../testing/fake-context.js';
import { audit } from './audit.js';

function memoryAuditor(rules: unknown[]) {
  const events: AuditEvent[] = [];
  const backend: AuditBackend = { name: 'memory', processEvents: (e) => void events.push(...e), shutdown: async () => {} };
  const policy = parsePolicy({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules }, namesFor('svc'));
  assert.ok(policy.ok);
  return { events, auditor: createAuditor(policy.ok ? policy.value : (undefined as never), backend, 'audit.svc.io/v1') };
}

test('audit filter: admission annotations reach the event from the level they were recorded at; objects by level', async () => {
  const { events, auditor } = memoryAuditor([{ level: 'Metadata', resources: [{ group: '', resources: ['secrets'] }] }, { level: 'RequestResponse' }]);
  for (const resource of ['secrets', 'configmaps']) {
    const body = { apiVersion: 'v1', kind: resource === 'secrets' ? 'Secret' : 'ConfigMap', metadata: { name: 'x', namespace: 'ns', managedFields: [{ manager: 'm' }] }, data: { k: 'djE=' } };
    const { ctx } = fakeContext({ verb: 'create', resource, namespace: 'ns', body });
    ctx.record.auditID = `id-${resource}`;
    await audit(auditor)(ctx, async () => {
      // What a handler's admission recorder records (a webhook's annotations), then the response.
      const recorder = requestRecorder(() => {}, ctx.record.annotations);
      recorder.annotate('hook.example.com/checked', 'yes', 'Metadata');
      recorder.annotate('hook.example.com/detail', 'the image digest', 'Request');
      ctx.record.requestObject = body;
      ctx.record.responseCode = 201;
      ctx.record.responseObject = { ...body, metadata: { ...body.metadata, uid: 'u-1', resourceVersion: '7' } };
    });
  }
  const secret = events.filter((e) => e.auditID === 'id-secrets');
  const configmap = events.filter((e) => e.auditID === 'id-configmaps');
  assert.deepEqual(secret.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
  assert.deepEqual(secret[1]!.annotations, { 'hook.example.com/checked': 'yes' }, 'a Request-level annotation stays out of a Metadata event');
  assert.equal(secret[1]!.requestObject, undefined);
  assert.equal(secret[1]!.responseObject, undefined);
  assert.deepEqual(configmap[1]!.annotations, { 'hook.example.com/checked': 'yes', 'hook.example.com/detail': 'the image digest' });
  assert.equal((configmap[1]!.requestObject as { data: unknown }).data !== undefined, true);
  assert.equal((configmap[1]!.responseObject as { metadata: { uid: string } }).metadata.uid, 'u-1');
  assert.deepEqual(configmap[1]!.objectRef, { resource: 'configmaps', namespace: 'ns', name: 'x', apiGroup: '', apiVersion: 'v1' });
});

test('audit filter: a throw while serving is a Panic event, and the throw goes on to panic recovery', async () => {
  const { events, auditor } = memoryAuditor([{ level: 'Metadata' }]);
  const { ctx } = fakeContext({ verb: 'get', resource: 'pods', namespace: 'ns', name: 'p' });
  ctx.record.auditID = 'boom';
  await assert.rejects(audit(auditor)(ctx, async () => {
    throw new Error('nil pointer');
  }), /nil pointer/);
  assert.deepEqual(events.map((e) => e.stage), ['RequestReceived', 'Panic']);
  assert.deepEqual(events[1]!.responseStatus, { metadata: {}, status: 'Failure', message: 'APIServer panic\'d: nil pointer', reason: 'InternalError', code: 500 });
});

test('audit filter: the policy\'s None and omitted stages write nothing', async () => {
  const { events, auditor } = memoryAuditor([{ level: 'None', verbs: ['get'] }, { level: 'Metadata', omitStages: ['RequestReceived', 'ResponseComplete'] }]);
  for (const verb of ['get', 'list']) {
    const { ctx } = fakeContext({ verb, resource: 'pods', namespace: 'ns', ...(verb === 'get' ? { name: 'p' } : {}) });
    let served = false;
    await audit(auditor)(ctx, async () => {
      served = true;
    });
    assert.ok(served);
  }
  assert.deepEqual(events, []);
});
