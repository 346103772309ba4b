/**
 * The baseline of the overload benchmark: node:http2 over TLS with the API server's certificate and TLS options,
 * answering every request at once as flow control refuses one — 429 with the headers and Status body of the API
 * server's refusal — and doing nothing else. What that costs is the least any Node server pays per refused
 * request. Prints `raw-http2: serving on <port>` when listening; exits on SIGTERM.
 */
import { createSecureServer } from 'node:http2';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' }, ca: { type: 'string' } } });
if (!values.cert || !values.key || !values.ca) throw new Error('raw-http2-refusal-server needs --cert, --key and --ca');

const body = Buffer.from(JSON.stringify({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.',
  reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429,
}));

const server = createSecureServer({
  cert: readFileSync(values.cert), key: readFileSync(values.key), ca: readFileSync(values.ca),
  allowHTTP1: true, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2',
}, (req, res) => {
  req.resume();
  res.writeHead(429, {
    'content-type': 'application/json', 'content-length': body.length, 'retry-after': '1', 'cache-control': 'no-cache, private',
    'audit-id': randomUUID(), 'x-kubernetes-pf-flowschema-uid': randomUUID(), 'x-kubernetes-pf-prioritylevel-uid': randomUUID(),
  });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`raw-http2: serving on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
