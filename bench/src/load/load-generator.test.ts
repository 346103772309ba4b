import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueLeaf } from 'svc-apiserver/pki/certificates';
import { startLoadGenerator } from './load-generator.js';

test('a run after the server closed idle keep-alive connections opens them again and loses no request', async () => {
  const ca = await createCa('load-generator-test-ca');
  const leaf = await issueLeaf(ca, { commonName: 'load-generator-test', usage: 'server', sans: ['127.0.0.1'] });
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('ok'));
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const generator = await startLoadGenerator({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, tls: { ca: ca.certPem } }, { connections: 2 });
  try {
    const plan = { method: 'GET', path: '/', expect: 200 };
    const first = await generator.run(plan, 0.1);
    assert.ok(first.ok > 0 && first.errors === 0, JSON.stringify(first.statuses));
    // Idle past the server's keep-alive timeout (node closes such sockets within about a second after it).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const second = await generator.run(plan, 0.1);
    assert.ok(second.ok > 0, 'the second run was served');
    assert.equal(second.errors, 0, `${JSON.stringify(second.statuses)} ${second.firstError ?? ''}`);
  } finally {
    await generator.close();
    server.close();
  }
});
