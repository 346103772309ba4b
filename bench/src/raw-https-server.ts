/**
 * The node:https baseline of the benchmark: the same certificate and TLS options as the API server, answering fixed
 * JSON bodies of the API's sizes (201 for POST, an object for GET of a name, a list of `--list-items` objects for
 * GET of a collection). Prints `raw-https: serving on <port>` when listening; exits on SIGTERM.
 *
 * With `--etcd=<endpoint>` a POST is stored in etcd before the answer: the request body under
 * `/bench-proxy/<path>/<metadata.name>` with one `etcd3` create transaction (put if absent), answered 201 with the
 * body. That is node:https in front of etcd3 with no API work at all: the ceiling of any Node server on etcd.
 */
import type { ServerResponse } from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' }, ca: { type: 'string' }, 'list-items': { type: 'string' }, etcd: { type: 'string' } } });
if (!values.cert || !values.key || !values.ca) throw new Error('raw-https-server needs --cert, --key and --ca');

function configMap(i: number): Record<string, unknown> {
  return {
    kind: 'ConfigMap', apiVersion: 'v1',
    metadata: {
      name: `cm-${i}`, namespace: 'bench', uid: '6f1c7a52-3d1e-4b8a-9d57-0c3f7e2b9a10', resourceVersion: String(1000 + i),
      creationTimestamp: '2024-01-01T00:00:00Z',
      managedFields: [{ manager: 'bench', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} } } }],
    },
    data: { k: 'v'.repeat(64) },
  };
}

const one = Buffer.from(JSON.stringify(configMap(1)));
const items = Number(values['list-items'] ?? '1000');
const list = Buffer.from(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '99999' }, items: Array.from({ length: items }, (_, i) => configMap(i)) }));

const etcd = values.etcd === undefined ? undefined : new (await import('etcd3')).Etcd3({ hosts: [values.etcd] });

/** Stores a POST body as the etcd Backend would (a create transaction), answering 201 with it, or 409/500. */
async function store(path: string, body: Buffer, res: ServerResponse): Promise<void> {
  let name: string;
  try {
    name = String((JSON.parse(body.toString('utf8')) as { metadata?: { name?: unknown } }).metadata?.name ?? '');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const key = `/bench-proxy${path}/${name}`;
  try {
    const r = await etcd!.if(key, 'Create', '==', 0).then(etcd!.put(key).value(body)).commit();
    res.writeHead(r.succeeded ? 201 : 409, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  } catch {
    res.writeHead(500).end();
  }
}

const server = https.createServer({
  cert: readFileSync(values.cert), key: readFileSync(values.key), ca: readFileSync(values.ca),
  requestCert: true, rejectUnauthorized: false, keepAliveTimeout: 60_000,
}, (req, res) => {
  // read the body like a real server would before answering
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => {
    if (etcd !== undefined) chunks.push(c);
  });
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (etcd !== undefined && req.method === 'POST') {
      void store(path, Buffer.concat(chunks), res);
      return;
    }
    const body = req.method === 'GET' && path.endsWith('/configmaps') ? list : one;
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`raw-https: serving on ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  etcd?.close();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
