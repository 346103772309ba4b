import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { createLogger } from '../logging/logger.js';
import { startServer, type RunningServer } from '../server.js';

function send(server: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown>; warnings: string[] }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${path}`, {
      method, ca: server.ca, cert: server.adminCert, key: server.adminKey, agent: false, headers: { 'content-type': 'application/json' },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const warning = res.headers['warning'];
        const warnings = (Array.isArray(warning) ? warning : warning === undefined ? [] : [warning]);
        resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : JSON.parse(text) as Record<string, unknown>, warnings });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test('over HTTPS: the default plugins enforce pod security and priority classes, webhook configurations are validated, warnings are headers', async (t) => {
  const dir = tempDir(t, 'admission-server-');
  const server = await startServer({ dataDir: dir, securePort: 0, storage: 'memory', log: () => {} });
  try {
    const ns = await send(server, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace',
      metadata: { name: 'strict', labels: { 'pod-security.svc.io/enforce': 'restricted', 'pod-security.svc.io/warn': 'restricted' } } });
    assert.equal(ns.status, 201);
    const pod = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'x:1' }], ...spec } });
    const privileged = await send(server, 'POST', '/api/v1/namespaces/strict/pods', pod('host', { hostNetwork: true }));
    assert.equal(privileged.status, 403);
    assert.match(String(privileged.body['message']), /^pods "host" is forbidden: violates PodSecurity "restricted:latest": host namespaces \(hostNetwork\)/);
    const noClass = await send(server, 'POST', '/api/v1/namespaces/default/pods', pod('p', { priorityClassName: 'nosuch' }));
    assert.equal(noClass.status, 403);
    assert.equal(noClass.body['message'], 'pods "p" is forbidden: no PriorityClass with name nosuch was found');
    const tolerated = await send(server, 'POST', '/api/v1/namespaces/default/pods', pod('t', {}));
    assert.equal(tolerated.status, 201);
    assert.equal(((tolerated.body['spec'] as { tolerations: unknown[] }).tolerations).length, 2, 'DefaultTolerationSeconds');
    const hook = await send(server, 'POST', '/apis/admissionregistration.svc.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bad' },
      webhooks: [{ name: 'a.b.c', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url: 'http://example.com/' } }],
    });
    assert.equal(hook.status, 422);
    const warnedNs = await send(server, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'watched', labels: { 'pod-security.svc.io/warn': 'baseline' } } });
    assert.equal(warnedNs.status, 201);
    const warned = await send(server, 'POST', '/api/v1/namespaces/watched/pods', pod('w', { hostPID: true }));
    assert.equal(warned.status, 201);
    assert.deepEqual(warned.warnings, ['299 - "would violate PodSecurity \\"baseline:latest\\": host namespaces (hostPID)"']);
  } finally {
    await server.close();
  }
});

test('an unknown plugin, a missing configuration and a bad configuration file each stop the start with a message', async (t) => {
  const dir = tempDir(t, 'admission-server-');
  const start = (o: Record<string, unknown>) => startServer({ dataDir: dir, securePort: 0, storage: 'memory', log: () => {}, ...o });
  await assert.rejects(start({ enableAdmissionPlugins: ['Nope'] }), /enable-admission-plugins plugin "Nope" is unknown/);
  await assert.rejects(start({ enableAdmissionPlugins: ['EventRateLimit'] }), /EventRateLimit: invalid configuration/);
  const file = join(dir, 'admission.yaml');
  await writeFile(file, 'apiVersion: apiserver.config.svc.io/v1\nkind: Wrong\n');
  await assert.rejects(start({ admissionControlConfigFile: file }), /no kind "Wrong" is registered/);
});

test('a deprecated plugin enabled starts the server with kube\'s warning; AlwaysDeny then refuses writes', async (t) => {
  const dir = tempDir(t, 'admission-server-');
  const lines: string[] = [];
  const server = await startServer({
    dataDir: dir, securePort: 0, storage: 'memory', log: () => {}, enableAdmissionPlugins: ['AlwaysAdmit', 'AlwaysDeny'],
    logger: createLogger({ format: 'text', verbosity: 0, write: (line) => lines.push(line) }),
  });
  try {
    for (const plugin of ['AlwaysAdmit', 'AlwaysDeny']) {
      assert.ok(lines.some((l) => l.startsWith('W') && l.includes(`${plugin} admission controller is deprecated. Please remove this controller`)), plugin);
    }
    const res = await send(server, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'refused' } });
    assert.equal(res.status, 403);
    assert.equal(res.body['message'], 'namespaces "refused" is forbidden: admission control is denying all modifications');
  } finally {
    await server.close();
  }
});
