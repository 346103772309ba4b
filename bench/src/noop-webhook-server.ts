/**
 * A no-op admission webhook for the admission benchmark, run as its own process: an HTTPS server that allows
 * every AdmissionReview it is sent, echoing the request's uid, as fast as it can. It speaks HTTP/1.1 only, or with
 * `--http2` offers HTTP/2 by ALPN beside HTTP/1.1 as a webhook built on Go's net/http server does by default
 * (webhooks whose framework turns HTTP/2 off are the HTTP/1.1-only case). Prints `noop-webhook: serving on <port>`
 * when ready.
 *
 * Flags: --cert=<PEM file> --key=<PEM file> [--http2]
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' }, http2: { type: 'boolean' } } });
if (values.cert === undefined || values.key === undefined) throw new Error('--cert and --key are required');

const answer = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let review: { apiVersion?: string; request?: { uid?: string } } = {};
    try {
      review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof review;
    } catch {
      // An unreadable review gets an answer without a uid, which the server refuses as invalid.
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } }));
  });
};
const tls = { cert: readFileSync(values.cert), key: readFileSync(values.key) };
const server = values.http2 === true
  ? createSecureServer({ ...tls, allowHTTP1: true }, answer)
  : createServer({ ...tls, keepAliveTimeout: 60_000 }, answer);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`noop-webhook: serving on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
