import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeProbe } from './container-lines.js';

test('probes as kubectl\'s DescribeProbe prints them', () => {
  const timing = { initialDelaySeconds: 5, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
  const attrs = 'delay=5s timeout=1s period=10s #success=1 #failure=3';
  assert.equal(describeProbe({ ...timing, httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' } }), `http-get http://:8080/healthz ${attrs}`);
  assert.equal(describeProbe({ ...timing, httpGet: { host: '::1', path: 'ready', port: 'http', scheme: 'HTTPS' } }), `http-get https://[::1]:http/ready ${attrs}`);
  assert.equal(describeProbe({ ...timing, exec: { command: ['cat', '/tmp/ok'] } }), `exec [cat /tmp/ok] ${attrs}`);
  assert.equal(describeProbe({ ...timing, tcpSocket: { port: 53 } }), `tcp-socket :53 ${attrs}`);
  assert.equal(describeProbe({ ...timing, grpc: { port: 9000, service: 'health' } }), `grpc <pod>:9000 health ${attrs}`);
  assert.equal(describeProbe({}), 'unknown delay=0s timeout=0s period=0s #success=0 #failure=0');
});
