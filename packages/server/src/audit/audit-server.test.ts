import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { startServer, type RunningServer } from '../server.js';
import { call, createNamespace, eventually } from '../e2e/http.js';
import type { AuditEvent } from './event.js';

// The policy of the matrix: Secrets at Metadata ahead of a RequestResponse catch-all, ConfigMaps at Request without
// RequestReceived, ServiceAccounts at RequestResponse without managedFields, Events not at all.
const policyYaml = `apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: None
  resources: [{group: "", resources: ["events"]}]
- level: None
  nonResourceURLs: ["/livez*", "/readyz*", "/healthz*"]
- level: Metadata
  resources: [{group: "", resources: ["secrets"]}]
- level: Request
  resources: [{group: "", resources: ["configmaps"]}]
  omitStages: [RequestReceived]
- level: RequestResponse
  resources: [{group: "", resources: ["serviceaccounts"]}]
  omitManagedFields: true
- level: RequestResponse
`;

let dir: string;
let server: RunningServer;
let client: RestClient;
const logPath = () => join(dir, 'audit.log');

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-server-'));
  writeFileSync(join(dir, 'policy.yaml'), policyYaml);
  server = await startServer({
    dataDir: join(dir, 'data'), securePort: 0, storage: 'memory', log: () => {},
    auditPolicyFile: join(dir, 'policy.yaml'), auditLogPath: logPath(),
  });
  await server.ready();
  client = createClient({ server: server.url, ca: Buffer.from(server.ca), cert: Buffer.from(server.adminCert), key: Buffer.from(server.adminKey), namespace: 'default' });
});

after(async () => {
  client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function events(): AuditEvent[] {
  return readFileSync(logPath(), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as AuditEvent);
}

/** The events of one request, once its last expected stage is in the log. */
async function eventsOf(auditID: string, last = 'ResponseComplete'): Promise<AuditEvent[]> {
  assert.ok(await eventually(async () => events().some((e) => e.auditID === auditID && e.stage === last), 5000, 20), `${last} of ${auditID} in the log`);
  return events().filter((e) => e.auditID === auditID);
}

test('audit: level x stage x resource as the policy says; Secrets never above Metadata; Audit-Id on every response', async () => {
  await createNamespace(client, 'audited');
  const secret = await call(client, 'POST', '/api/v1/namespaces/audited/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { password: 'hunter2' } });
  assert.equal(secret.status, 201);
  const cm = await call(client, 'POST', '/api/v1/namespaces/audited/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { k: 'v' } }, { 'user-agent': 'matrix-test/1.0' });
  const sa = await call(client, 'POST', '/api/v1/namespaces/audited/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } });
  const evs = await call(client, 'GET', '/api/v1/namespaces/audited/events');
  const secretGet = await call(client, 'GET', '/api/v1/namespaces/audited/secrets/s1');
  const missing = await call(client, 'GET', '/api/v1/namespaces/audited/secrets/nope');
  const livez = await call(client, 'GET', '/livez');
  for (const r of [secret, cm, sa, evs, secretGet, missing, livez]) assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/, 'Audit-Id on every response');

  const sEvents = await eventsOf(String(secret.headers['audit-id']));
  assert.deepEqual(sEvents.map((e) => `${e.stage}:${e.level}`), ['RequestReceived:Metadata', 'ResponseComplete:Metadata']);
  const sGet = await eventsOf(String(secretGet.headers['audit-id']));
  const miss = await eventsOf(String(missing.headers['audit-id']));
  for (const e of [...sEvents, ...sGet, ...miss]) {
    assert.equal(e.requestObject, undefined);
    assert.equal(e.responseObject, undefined);
    assert.doesNotMatch(JSON.stringify(e), /hunter2|aHVudGVyMg/, 'no secret data in any event');
  }
  const done = sEvents[1]!;
  assert.deepEqual(done.objectRef, { resource: 'secrets', namespace: 'audited', name: 's1', apiGroup: '', apiVersion: 'v1' });
  assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
  assert.equal(done.user.username, 'admin');
  assert.ok(done.user.groups?.includes('system:masters'));
  assert.deepEqual(done.sourceIPs, ['127.0.0.1']);
  assert.equal(done.verb, 'create');
  assert.equal(done.requestURI, '/api/v1/namespaces/audited/secrets');
  assert.equal(done.annotations?.['authorization.svc.io/decision'], 'allow');
  assert.match(done.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.ok(done.stageTimestamp >= done.requestReceivedTimestamp);
  assert.deepEqual(miss.at(-1)!.responseStatus, { metadata: {}, status: 'Failure', message: 'secrets "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'secrets' }, code: 404 });

  const cEvents = await eventsOf(String(cm.headers['audit-id']));
  assert.deepEqual(cEvents.map((e) => `${e.stage}:${e.level}`), ['ResponseComplete:Request'], 'RequestReceived omitted');
  assert.deepEqual((cEvents[0]!.requestObject as { data: unknown }).data, { k: 'v' });
  assert.equal(cEvents[0]!.responseObject, undefined);
  assert.equal(cEvents[0]!.userAgent, 'matrix-test/1.0');

  const saEvents = await eventsOf(String(sa.headers['audit-id']));
  assert.deepEqual(saEvents.map((e) => `${e.stage}:${e.level}`), ['RequestReceived:RequestResponse', 'ResponseComplete:RequestResponse']);
  const saResponse = saEvents[1]!.responseObject as { metadata: Record<string, unknown> };
  assert.equal(saResponse.metadata['name'], 'sa1');
  assert.equal(saResponse.metadata['managedFields'], undefined, 'omitManagedFields');
  assert.equal(saEvents[1]!.objectRef?.name, 'sa1');

  await new Promise((r) => setTimeout(r, 50));
  const all = events();
  assert.ok(!all.some((e) => e.auditID === String(evs.headers['audit-id'])), 'level None: not audited');
  assert.ok(!all.some((e) => e.requestURI.startsWith('/livez')));
});

test('audit: watches get ResponseStarted; impersonation shows the impersonated user; deprecated versions are annotated', async () => {
  const watch = await call(client, 'GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1');
  const wEvents = await eventsOf(String(watch.headers['audit-id']));
  assert.deepEqual(wEvents.map((e) => e.stage), ['ResponseStarted', 'ResponseComplete']);
  assert.deepEqual(wEvents[0]!.responseStatus, { metadata: {}, code: 200 });

  const imp = await call(client, 'GET', '/api/v1/namespaces/default/pods', undefined, { 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' });
  const iEvents = await eventsOf(String(imp.headers['audit-id']));
  assert.equal(iEvents[0]!.impersonatedUser, undefined, 'RequestReceived comes before impersonation');
  assert.equal(iEvents[1]!.user.username, 'admin');
  assert.deepEqual(iEvents[1]!.impersonatedUser, { username: 'jane', groups: ['devs', 'system:authenticated'] });
  assert.equal(iEvents[1]!.annotations?.['authorization.svc.io/decision'], 'forbid');
  assert.match(iEvents[1]!.annotations?.['authorization.svc.io/reason'] ?? '', /.*/);
  assert.equal(iEvents[1]!.responseStatus?.code, 403);

  const old = await call(client, 'GET', '/apis/flowcontrol.apiserver.svc.io/v1beta2/flowschemas');
  const oEvents = await eventsOf(String(old.headers['audit-id']));
  assert.equal(oEvents[1]!.annotations?.['svc.io/deprecated'], 'true');

  const sent = await call(client, 'GET', '/api/v1/namespaces/default/pods', undefined, { 'Audit-ID': 'front-proxy-id-1' });
  assert.equal(sent.headers['audit-id'], 'front-proxy-id-1', 'an ID a front server sent is kept');
});

test('audit: a request refused by authentication is audited without a user', async () => {
  const stranger = createClient({ server: server.url, ca: Buffer.from(server.ca), token: 'not-a-token', namespace: 'default' });
  try {
    const refused = await call(stranger, 'GET', '/api/v1/namespaces/default/pods');
    assert.equal(refused.status, 401);
    const [event, ...rest] = await eventsOf(String(refused.headers['audit-id']), 'ResponseStarted');
    assert.equal(rest.length, 0);
    assert.deepEqual(event!.user, {});
    assert.equal(event!.level, 'RequestResponse');
    assert.deepEqual(event!.responseStatus, { metadata: {}, status: 'Failure', message: 'Authentication failed', reason: 'Unauthorized', code: 401 });
    assert.equal(event!.objectRef?.resource, 'pods');
  } finally {
    stranger.close();
  }
});
