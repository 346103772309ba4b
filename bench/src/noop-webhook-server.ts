/**
 * A no-op admission webhook for the admission benchmark, run as its own process: an HTTPS server that allows
 * every AdmissionReview it is sent, echoing the request's uid, as fast as it can. Prints `noop-webhook: serving on
 * <port>` when ready.
 *
 * Flags: --cert=<PEM file> --key=<PEM file>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' } } });
if (values.cert === undefined || values.key === undefined) throw new Error('--cert and --key are required');

const server = createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key), keepAliveTimeout: 60_000 }, (req, res) => {
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
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`noop-webhook: serving on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
