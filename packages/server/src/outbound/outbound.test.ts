/**
 * The outbound client's one suite, against real HTTPS servers on loopback: trust, server names of Services,
 * client credentials by host, Service references resolved to endpoints, timeouts, size limits and streaming.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { createCa, issueLeaf, type CertAndKey } from '../pki/certificates.js';
import { deadlineExceeded, httpsGetJson, httpsPostJson, httpsRequest, maxResponseBytes, openHttpsRequest, parseHttpsUrl } from './https-request.js';
import { poolOf, pooledTarget } from './connection-pool.js';
import { loadKubeconfig, parseKubeconfig } from './kubeconfig-file.js';
import { anonymousAuthInfo, authInfoResolver } from './auth-info-resolver.js';
import { serviceResolver, type ServiceLookup } from './service-resolver.js';
import { resolveClientConfig } from './client-config.js';
import { loadWebhookConnection } from './webhook-connection.js';

interface Seen {
  readonly authorization: string | undefined;
  readonly clientCn: string | undefined;
  readonly url: string | undefined;
  readonly body: string;
  /** The client's port: requests on one kept-alive connection share it. */
  readonly remotePort: number | undefined;
}

let ca: CertAndKey;
let otherCa: CertAndKey;
let client: CertAndKey;
let server: Server;
let port = 0;
let seen: Seen[] = [];
const dir = tempDir({ after }, 'outbound-');

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    seen.push({
      authorization: req.headers.authorization, clientCn: [peer?.subject?.CN].flat()[0], url: req.url, body: Buffer.concat(chunks).toString(),
      remotePort: req.socket.remotePort,
    });
    if (req.url === '/slow') return; // never answers
    if (req.url === '/huge') {
      res.end(Buffer.alloc(maxResponseBytes + 1, 'a'));
      return;
    }
    if (req.url === '/stream') {
      res.write('first\n');
      setTimeout(() => res.end('second\n'), 20);
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url }));
  });
}

before(async () => {
  ca = await createCa('outbound-test-ca');
  otherCa = await createCa('other-ca');
  const serving = await issueLeaf(ca, { commonName: 'hook', usage: 'server', sans: ['127.0.0.1', 'hook.webhooks.svc'] });
  client = await issueLeaf(ca, { commonName: 'apiserver-client', usage: 'client' });
  server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('https requests', () => {
  test('trust comes from the CA bundle; another CA is refused', async () => {
    const good = await httpsGetJson(`https://127.0.0.1:${port}/ok`, { ca: ca.certPem });
    assert.deepEqual(good, { ok: true, value: { path: '/ok' } });
    const bad = await httpsGetJson(`https://127.0.0.1:${port}/ok`, { ca: otherCa.certPem });
    assert.equal(bad.ok, false);
  });

  test('credentials: client certificate, bearer token, basic auth', async () => {
    seen = [];
    await httpsRequest(`https://127.0.0.1:${port}/a`, 'GET', { ca: ca.certPem, cert: client.certPem, key: client.keyPem, token: 't0k' });
    await httpsRequest(`https://127.0.0.1:${port}/b`, 'GET', { ca: ca.certPem, basicAuth: { username: 'u', password: 'p' } });
    assert.equal(seen[0]?.clientCn, 'apiserver-client');
    assert.equal(seen[0]?.authorization, 'Bearer t0k');
    assert.equal(seen[1]?.authorization, `Basic ${b64('u:p')}`);
  });

  test('failures are values: timeouts, oversized answers, plain http, header values Node refuses', async () => {
    const slow = await httpsRequest(`https://127.0.0.1:${port}/slow`, 'GET', { ca: ca.certPem, timeoutMs: 100 });
    assert.equal(slow.ok, false);
    assert.match(!slow.ok ? slow.error : '', /timed out/);
    const huge = await httpsRequest(`https://127.0.0.1:${port}/huge`, 'GET', { ca: ca.certPem });
    assert.equal(huge.ok, false);
    assert.equal((await httpsRequest(`http://127.0.0.1:${port}/`, 'GET', {})).ok, false);
    assert.equal((await httpsRequest('not a url', 'GET', {})).ok, false);
    assert.equal((await httpsRequest(`https://127.0.0.1:${port}/`, 'GET', { ca: ca.certPem, token: 'bad\ntoken' })).ok, false);
  });

  test('posts JSON and reads JSON answers of any status', async () => {
    seen = [];
    const res = await httpsPostJson(`https://127.0.0.1:${port}/review`, { ca: ca.certPem }, { kind: 'AdmissionReview' });
    assert.deepEqual(res, { ok: true, value: { status: 200, body: { path: '/review' } } });
    assert.equal(seen[0]?.body, '{"kind":"AdmissionReview"}');
  });

  test('streams: the caller reads the response as it comes', async () => {
    const opened = openHttpsRequest(`https://127.0.0.1:${port}/stream`, { method: 'GET', target: { ca: ca.certPem, timeoutMs: 0 } });
    assert.ok(opened.ok);
    const req = opened.value;
    const text = await new Promise<string>((resolve, reject) => {
      req.on('response', (res) => {
        let all = '';
        res.on('data', (c: Buffer) => (all += c.toString()));
        res.on('end', () => resolve(all));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(text, 'first\nsecond\n');
  });
});

describe('connection files', () => {
  test('data fields, file references relative to the file, the current context', () => {
    writeFileSync(join(dir, 'ca.pem'), ca.certPem);
    const path = join(dir, 'webhook.kubeconfig');
    writeFileSync(path, [
      'apiVersion: v1', 'kind: Config', 'current-context: c',
      'clusters: [{name: hook, cluster: {server: "https://127.0.0.1:1/x", certificate-authority: ca.pem, tls-server-name: hook.webhooks.svc}}]',
      `users: [{name: me, user: {client-certificate-data: ${b64(client.certPem)}, client-key-data: ${b64(client.keyPem)}}}]`,
      'contexts: [{name: c, context: {cluster: hook, user: me}}]',
    ].join('\n'));
    const conn = loadWebhookConnection(path);
    assert.ok(conn.ok);
    assert.equal(conn.value.server, 'https://127.0.0.1:1/x');
    assert.equal(conn.value.target.ca, ca.certPem);
    assert.equal(conn.value.target.cert, client.certPem);
    assert.equal(conn.value.target.serverName, 'hook.webhooks.svc');
  });

  test('malformed files are errors, never throws; alias bombs are refused', () => {
    assert.equal(parseKubeconfig(': : :\n  - [', 'f').ok, false);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`)].join('\n');
    assert.equal(parseKubeconfig(bomb, 'f').ok, false);
    assert.equal(loadKubeconfig(join(dir, 'missing')).ok, false);
    const noServer = loadWebhookConnection((writeFileSync(join(dir, 'n'), 'current-context: c\ncontexts: [{name: c, context: {cluster: x}}]\nclusters: [{name: x, cluster: {}}]'), join(dir, 'n')));
    assert.equal(noServer.ok, false);
    assert.deepEqual(parseKubeconfig('[1, 2]', 'f'), { ok: true, value: { path: 'f', clusters: new Map(), users: new Map(), contexts: new Map(), currentContext: '' } });
  });
});

describe('credentials by host', () => {
  const file = parseKubeconfig([
    'users:',
    '- {name: "hook.webhooks.svc", user: {token: svc-default-port}}',
    '- {name: "hook.webhooks.svc:8443", user: {token: svc-8443}}',
    '- {name: "*.example.com", user: {token: wildcard}}',
    '- {name: "api.example.com:9443", user: {token: exact-port}}',
    '- {name: "*", user: {username: any, password: one}}',
  ].join('\n'), 'creds');

  test('exact host and port, the bare host for 443, `*.` suffixes, then `*`', () => {
    assert.ok(file.ok);
    const r = authInfoResolver(file.value);
    assert.equal(r.forService('hook', 'webhooks', 443).token, 'svc-default-port');
    assert.equal(r.forService('hook', 'webhooks', 8443).token, 'svc-8443');
    assert.equal(r.forHost('api.example.com', 9443).token, 'exact-port');
    assert.equal(r.forHost('deep.api.example.com', 443).token, 'wildcard');
    assert.deepEqual(r.forHost('elsewhere.org', 443).basicAuth, { username: 'any', password: 'one' });
    assert.deepEqual(anonymousAuthInfo.forHost('x', 1), {});
  });
});

describe('client configs', () => {
  const lookup = (over: Partial<Record<string, unknown>> = {}): ServiceLookup => ({
    service: async (ns, name) => (ns === 'webhooks' && name === 'hook' ? (over.service ?? { spec: { ports: [{ name: 'https', port: 443 }] } }) : undefined),
    endpoints: async () => over.endpoints ?? { subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] },
    endpointSlices: async () => (over.slices as unknown[] | undefined) ?? [],
  });

  test('a Service reference reaches an endpoint and verifies the Service DNS name', async () => {
    seen = [];
    const resolved = await resolveClientConfig(
      { service: { namespace: 'webhooks', name: 'hook', path: '/validate' }, caBundle: b64(ca.certPem) },
      { services: serviceResolver(lookup()), authInfo: anonymousAuthInfo }, 2000);
    assert.ok(resolved.ok);
    assert.equal(resolved.value.url, `https://127.0.0.1:${port}/validate`);
    const res = await httpsGetJson(resolved.value.url, resolved.value.target);
    assert.deepEqual(res, { ok: true, value: { path: '/validate' } });
    // Another Service name is not what the certificate names.
    const wrongName = await httpsGetJson(resolved.value.url, { ...resolved.value.target, serverName: 'other.webhooks.svc' });
    assert.equal(wrongName.ok, false);
  });

  test('EndpointSlices serve when Endpoints have no address; not-ready endpoints are skipped', async () => {
    const slices = [{ ports: [{ name: 'https', port }], endpoints: [{ addresses: ['10.9.9.9'], conditions: { ready: false } }, { addresses: ['127.0.0.1'] }] }];
    const r = await serviceResolver(lookup({ endpoints: {}, slices })).resolve('webhooks', 'hook', 443);
    assert.deepEqual(r, { ok: true, value: { host: '127.0.0.1', port } });
  });

  test('errors name what is missing', async () => {
    const resolvers = (l: ServiceLookup) => ({ services: serviceResolver(l), authInfo: anonymousAuthInfo });
    const none = await resolveClientConfig({ service: { namespace: 'webhooks', name: 'nosuch' } }, resolvers(lookup()), 1000);
    assert.deepEqual(none, { ok: false, error: 'service "webhooks/nosuch" not found' });
    const noPort = await resolveClientConfig({ service: { namespace: 'webhooks', name: 'hook', port: 8443 } }, resolvers(lookup()), 1000);
    assert.deepEqual(noPort, { ok: false, error: 'no service port 8443 found for service "webhooks/hook"' });
    const noEndpoints = await resolveClientConfig({ service: { namespace: 'webhooks', name: 'hook' } }, resolvers(lookup({ endpoints: {} })), 1000);
    assert.deepEqual(noEndpoints, { ok: false, error: 'no endpoints available for service "webhooks/hook"' });
    assert.equal((await resolveClientConfig({}, resolvers(lookup()), 1000)).ok, false);
    assert.equal((await resolveClientConfig({ url: 'http://x/' }, resolvers(lookup()), 1000)).ok, false);
  });

  test('a URL gets the credentials of its host and the timeout', async () => {
    const file = parseKubeconfig(`users: [{name: "127.0.0.1:${port}", user: {token: by-host}}]`, 'f');
    assert.ok(file.ok);
    seen = [];
    const resolved = await resolveClientConfig({ url: `https://127.0.0.1:${port}/mutate`, caBundle: b64(ca.certPem) },
      { services: serviceResolver(lookup()), authInfo: authInfoResolver(file.value) }, 1234);
    assert.ok(resolved.ok);
    assert.equal(resolved.value.target.timeoutMs, 1234);
    await httpsRequest(resolved.value.url, 'POST', resolved.value.target, '{}');
    assert.equal(seen[0]?.authorization, 'Bearer by-host');
  });
});

describe('connection pools', () => {
  test('targets with the same TLS settings share one pool, whose connections stay open between requests', async () => {
    const a = pooledTarget({ ca: ca.certPem, cert: client.certPem, key: client.keyPem, timeoutMs: 2000 });
    const b = pooledTarget({ ca: ca.certPem, cert: client.certPem, key: client.keyPem, token: 'other' });
    assert.ok(a.agent !== undefined);
    assert.equal(a.agent, b.agent);
    assert.notEqual(pooledTarget({ ca: ca.certPem }).agent, a.agent);
    seen = [];
    for (const path of ['/one', '/two', '/three']) assert.ok((await httpsRequest(`https://127.0.0.1:${port}${path}`, 'GET', a)).ok);
    assert.equal(seen.length, 3);
    // The pool's secure context carries the client certificate, and one connection served all three.
    assert.deepEqual(seen.map((s) => s.clientCn), ['apiserver-client', 'apiserver-client', 'apiserver-client']);
    assert.equal(new Set(seen.map((s) => s.remotePort)).size, 1);
  });

  test('a target changed after pooling carries its own settings; settings that do not parse fail the request as a value', async () => {
    const pooled = pooledTarget({ ca: otherCa.certPem });
    assert.equal(poolOf(pooled), pooled.agent);
    // The pool trusts another CA; the changed target's own trust is what counts.
    const changed = { ...pooled, ca: ca.certPem };
    assert.equal(poolOf(changed), undefined);
    assert.ok((await httpsRequest(`https://127.0.0.1:${port}/changed`, 'GET', changed)).ok);
    assert.equal((await httpsRequest(`https://127.0.0.1:${port}/pooled`, 'GET', pooled)).ok, false);
    const broken = pooledTarget({ ca: 'not a certificate', cert: 'nor this' });
    assert.equal((await httpsRequest(`https://127.0.0.1:${port}/`, 'GET', broken)).ok, false);
  });

  test('a parsed URL serves many requests; a deadline bounds the whole exchange', async () => {
    const url = parseHttpsUrl(`https://127.0.0.1:${port}/parsed?x=1`);
    assert.ok(url.ok);
    assert.deepEqual(url.value, { host: '127.0.0.1', port, path: '/parsed?x=1' });
    assert.deepEqual(parseHttpsUrl('https://[::1]/p').ok && parseHttpsUrl('https://[::1]/p'), { ok: true, value: { host: '::1', port: 443, path: '/p' } });
    assert.equal(parseHttpsUrl('http://127.0.0.1/').ok, false);
    const target = pooledTarget({ ca: ca.certPem });
    const res = await httpsPostJson(url.value, target, { a: 1 });
    assert.deepEqual(res, { ok: true, value: { status: 200, body: { path: '/parsed?x=1' } } });
    const started = Date.now();
    const slow = await httpsRequest(`https://127.0.0.1:${port}/slow`, 'GET', target, undefined, { deadlineMs: 150 });
    assert.deepEqual(slow, { ok: false, error: deadlineExceeded });
    assert.ok(Date.now() - started < 5000);
  });
});
