/**
 * CRDs with several versions against the real server: the None strategy (apiVersion rewritten, objects read and
 * written through every served version, a deprecated version warning) and a Webhook strategy served by a real
 * HTTPS conversion webhook this test starts on loopback, reached by `url` and by a Service reference whose
 * Endpoints point at loopback, verified with its `caBundle`; ConversionReview v1 and v1beta1; a failing webhook
 * reported as kube reports it; `status.storedVersions` recording every storage version.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { namesFor } from '@svc-apiserver/api';
import { createCa, issueLeaf } from '../pki/certificates.js';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { establish } from './crd-fixtures.js';

const names = namesFor('svc');
const ext = names.group('apiextensions');
const crdPath = `/apis/${ext}/v1/customresourcedefinitions`;
const ns = 'conv';
let server: ServerProcess;
let webhook: Server;
let webhookPort = 0;
let caBundle = '';
const reviews: { apiVersion: string; desired: string; count: number }[] = [];
let failing = false;

/** v1 has `spec.cronSpec`, v2 calls it `spec.schedule`: the webhook renames it either way. */
function convert(object: Record<string, any>, desired: string): Record<string, any> {
  const spec = { ...(object['spec'] ?? {}) };
  if (desired.endsWith('/v2') && 'cronSpec' in spec) {
    spec.schedule = spec.cronSpec;
    delete spec.cronSpec;
  } else if (desired.endsWith('/v1') && 'schedule' in spec) {
    spec.cronSpec = spec.schedule;
    delete spec.schedule;
  }
  return { ...object, apiVersion: desired, spec };
}

const schema = (field: string) => ({
  openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, size: { type: 'integer' } } } } },
});

function crd(group: string, conversion: Record<string, unknown> | undefined, extraVersion: Record<string, unknown> = {}) {
  return {
    apiVersion: `${ext}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `crontabs.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural: 'crontabs', kind: 'CronTab' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('cronSpec') },
        { name: 'v2', served: true, storage: false, schema: schema('schedule'), ...extraVersion },
      ],
      ...(conversion !== undefined ? { conversion } : {}),
    },
  };
}

before(async () => {
  const ca = await createCa('conversion-webhook-ca');
  const leaf = await issueLeaf(ca, { commonName: 'conversion', usage: 'server', sans: ['127.0.0.1', 'converter.conv.svc'] });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  webhook = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      const request = review.request;
      reviews.push({ apiVersion: review.apiVersion, desired: request.desiredAPIVersion, count: request.objects.length });
      const response = failing
        ? { uid: request.uid, result: { status: 'Failure', message: 'conversion refused' } }
        : { uid: request.uid, result: { status: 'Success' }, convertedObjects: request.objects.map((o: Record<string, any>) => convert(o, request.desiredAPIVersion)) };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response }));
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  webhookPort = (webhook.address() as AddressInfo).port;
  server = await startServerProcess({ storage: 'memory' });
  await createNamespace(server.client, ns);
});
after(async () => {
  await server?.stop();
  await new Promise((r) => webhook?.close(r));
});

test('None: every served version reads and writes the same objects, apiVersion rewritten; deprecated versions warn', async () => {
  const group = 'none.example.com';
  const noneCrd = crd(group, undefined, { deprecated: true, deprecationWarning: 'v2 is going away' });
  (noneCrd.spec.versions[1] as any).schema = schema('cronSpec');
  await establish(server, noneCrd);
  const v1 = `/apis/${group}/v1/namespaces/${ns}/crontabs`;
  const v2 = `/apis/${group}/v2/namespaces/${ns}/crontabs`;
  assert.equal((await call(server.client, 'POST', v1, { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'a' }, spec: { cronSpec: '* * * * *' } })).status, 201);
  const read = await call(server.client, 'GET', `${v2}/a`);
  assert.equal(read.status, 200);
  assert.equal(read.body.apiVersion, `${group}/v2`);
  assert.equal(read.body.spec.cronSpec, '* * * * *');
  assert.equal(read.headers.warning, '299 - "v2 is going away"');
  const written = await call(server.client, 'POST', v2, { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'b' }, spec: { cronSpec: '1 * * * *' } });
  assert.equal(written.status, 201, written.text);
  // Lists through each version, and again (each item's list bytes are kept per object version and type).
  const listed = async (path: string) => (await call(server.client, 'GET', path)).body.items.map((i: { kind: string; apiVersion: string; metadata: { name: string } }) => `${i.kind} ${i.apiVersion} ${i.metadata.name}`);
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await listed(v1), [`CronTab ${group}/v1 a`, `CronTab ${group}/v1 b`]);
    assert.deepEqual(await listed(v2), [`CronTab ${group}/v2 a`, `CronTab ${group}/v2 b`]);
  }
});

for (const [label, reviewVersions, byService] of [['v1 review by url', ['v1'], false], ['v1beta1 review by Service reference', ['v1beta1'], true]] as const) {
  test(`Webhook (${label}): objects converted on read, write, list and watch`, async () => {
    const group = byService ? 'svc.conv.example.com' : 'url.conv.example.com';
    if (byService) {
      assert.equal((await call(server.client, 'POST', `/api/v1/namespaces/${ns}/services`, {
        apiVersion: 'v1', kind: 'Service', metadata: { name: 'converter' }, spec: { ports: [{ port: 443, targetPort: webhookPort, name: 'https' }] },
      })).status, 201);
      assert.equal((await call(server.client, 'POST', `/api/v1/namespaces/${ns}/endpoints`, {
        apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'converter' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: webhookPort, name: 'https' }] }],
      })).status, 201);
    }
    const clientConfig = byService
      ? { service: { namespace: ns, name: 'converter', path: '/convert', port: 443 }, caBundle }
      : { url: `https://127.0.0.1:${webhookPort}/convert`, caBundle };
    await establish(server, crd(group, { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: reviewVersions } }));
    const v1 = `/apis/${group}/v1/namespaces/${ns}/crontabs`;
    const v2 = `/apis/${group}/v2/namespaces/${ns}/crontabs`;
    reviews.length = 0;
    const created = await call(server.client, 'POST', v2, { apiVersion: `${group}/v2`, kind: 'CronTab', metadata: { name: 'w' }, spec: { schedule: '*/2 * * * *', size: 1 } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec, { schedule: '*/2 * * * *', size: 1 });
    assert.equal(reviews[0]?.apiVersion, `${ext}/${reviewVersions[0]}`);
    const stored = await call(server.client, 'GET', `${v1}/w`);
    assert.deepEqual(stored.body.spec, { cronSpec: '*/2 * * * *', size: 1 }, 'stored in v1');
    const viaV2 = await call(server.client, 'GET', `${v2}/w`);
    assert.deepEqual(viaV2.body.spec, { schedule: '*/2 * * * *', size: 1 });
    assert.equal(viaV2.body.apiVersion, `${group}/v2`);
    const patched = await call(server.client, 'PATCH', `${v2}/w`, { spec: { size: 2 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.spec.size, 2);
    const list = await call(server.client, 'GET', v2);
    assert.deepEqual(list.body.items.map((i: { spec: unknown }) => i.spec), [{ schedule: '*/2 * * * *', size: 2 }]);

    const watch = server.client.watch({ group, version: 'v2', resource: 'crontabs', namespace: ns }, { resourceVersion: list.body.metadata.resourceVersion });
    const next = (async () => {
      for await (const e of watch) return e;
      return undefined;
    })();
    await call(server.client, 'PATCH', `${v1}/w`, { spec: { cronSpec: '0 0 * * *' } }, { 'content-type': 'application/merge-patch+json' });
    const event = await next;
    watch.close();
    assert.equal(event?.type, 'MODIFIED');
    assert.equal((event?.object as any).spec.schedule, '0 0 * * *');
  });
}

test('Webhook failures: answered as kube reports them; the stored versions record every storage version', async () => {
  const group = 'url.conv.example.com';
  failing = true;
  try {
    const r = await call(server.client, 'GET', `/apis/${group}/v2/namespaces/${ns}/crontabs/w`);
    assert.equal(r.status, 500);
    assert.match(r.body.message, /conversion webhook for url\.conv\.example\.com\/v2, Kind=CronTab returned failure: conversion refused/);
  } finally {
    failing = false;
  }
  const current = (await call(server.client, 'GET', `${crdPath}/crontabs.${group}`)).body;
  current.spec.versions[0].storage = false;
  current.spec.versions[1].storage = true;
  const swapped = await call(server.client, 'PUT', `${crdPath}/crontabs.${group}`, current);
  assert.equal(swapped.status, 200, swapped.text);
  assert.deepEqual(swapped.body.status.storedVersions, ['v1', 'v2']);
  const broken = (await call(server.client, 'GET', `${crdPath}/crontabs.${group}`)).body;
  broken.spec.conversion.webhook.clientConfig = { url: 'https://127.0.0.1:1/convert', caBundle };
  assert.equal((await call(server.client, 'PUT', `${crdPath}/crontabs.${group}`, broken)).status, 200);
  let last = '';
  const stillV1 = await call(server.client, 'GET', `/apis/${group}/v1/namespaces/${ns}/crontabs/w`);
  assert.equal(stillV1.status, 200, 'an object stays in the version it was stored in: read as that version, nothing to convert');
  assert.ok(await eventually(async () => {
    const r = await call(server.client, 'GET', `/apis/${group}/v2/namespaces/${ns}/crontabs/w`);
    last = r.text;
    return r.status === 500 && /conversion webhook for url\.conv\.example\.com\/v2, Kind=CronTab failed: Post "https:\/\/127\.0\.0\.1:1\/convert"/.test(r.body.message);
  }, 5000), `an unreachable webhook is a 500 naming the call: ${last}`);
});
