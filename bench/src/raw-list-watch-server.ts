/**
 * The node:http2 (with HTTP/1.1) baseline of the list-watch benchmark, with the API server's certificate: lists
 * built per request with `JSON.stringify` of the same items the API server holds, and a raw chunked fan-out that
 * serializes each event once and writes it to every open watch. Prints `raw-list-watch: serving on <port>`.
 *
 * GET /list?n=<count>  a ConfigMapList of n items (the bench's item shape), stringified on every request
 * GET /watch           a chunked stream of watch lines
 * POST /event?seq=&t=  one MODIFIED event to every watch; answers 200 when written
 */
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { benchConfigMap } from './list-watch-items.js';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' }, ca: { type: 'string' } } });
if (!values.cert || !values.key || !values.ca) throw new Error('raw-list-watch-server needs --cert, --key and --ca');

const lists = new Map<number, Record<string, unknown>[]>();
const itemsOf = (n: number): Record<string, unknown>[] => {
  let items = lists.get(n);
  if (items === undefined) {
    items = Array.from({ length: n }, (_, i) => benchConfigMap(`item-${i}`, 'bench', 1000 + i));
    lists.set(n, items);
  }
  return items;
};
const watchers = new Set<http2.Http2ServerResponse>();

const server = http2.createSecureServer({
  cert: readFileSync(values.cert), key: readFileSync(values.key), ca: readFileSync(values.ca),
  allowHTTP1: true, requestCert: true, rejectUnauthorized: false,
}, (req, res) => {
  const url = new URL(req.url, 'https://x');
  if (url.pathname === '/list') {
    const body = JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99999' }, items: itemsOf(Number(url.searchParams.get('n') ?? '1000')) });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  } else if (url.pathname === '/watch') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
    (res as unknown as { flushHeaders(): void }).flushHeaders();
    watchers.add(res);
    res.on('close', () => watchers.delete(res));
  } else if (url.pathname === '/event') {
    const object = benchConfigMap('fan', 'bench-fan', Number(url.searchParams.get('seq')));
    (object['data'] as Record<string, string>)['t'] = url.searchParams.get('t') ?? '0';
    (object['data'] as Record<string, string>)['seq'] = url.searchParams.get('seq') ?? '0';
    const frame = Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object })}\n`);
    for (const w of watchers) w.write(frame);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  } else {
    res.writeHead(404);
    res.end();
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`raw-list-watch: serving on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  for (const w of watchers) w.destroy();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
});
