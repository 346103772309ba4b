import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { WatchEvent } from '@svc-apiserver/api';
import { gone } from '@svc-apiserver/api';
import { createClient } from './rest-client.js';
import { isResourceExpired } from './watch.js';
import { startFakeServer, type RecordedRequest } from './testing/fake-server.js';

const cm = { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' };
const ev = (type: string, name: string, rv: string): string =>
  JSON.stringify({ type, object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, resourceVersion: rv } } }) + '\n';

test('streams events split across chunks, resumes from the last resourceVersion, stops on 410', async () => {
  let connection = 0;
  const fake = await startFakeServer((_req: RecordedRequest, res: ServerResponse) => {
    connection++;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (connection === 1) {
      const text = ev('ADDED', 'a', '11') + ev('MODIFIED', 'a', '12');
      // split mid-line so framing is exercised
      res.write(text.slice(0, 30));
      setTimeout(() => {
        res.write(text.slice(30));
        res.end(); // the server ends the connection: the client must reconnect from 12
      }, 20);
    } else if (connection === 2) {
      res.write(ev('DELETED', 'a', '13'));
      res.end(JSON.stringify({ type: 'ERROR', object: gone('too old resource version: 13 (20)') }) + '\n');
    } else {
      res.end();
    }
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const w = client.watch(cm, { resourceVersion: '10', allowWatchBookmarks: true, retryDelayMs: 10 });
    const events: WatchEvent[] = [];
    for await (const e of w) events.push(e);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED', 'ERROR']);
    assert.equal(isResourceExpired(events[3]!), true);
    assert.equal(isResourceExpired(events[0]!), false);
    assert.equal(w.resourceVersion, '13');
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[0]!.url, '/api/v1/namespaces/ns/configmaps?watch=true&resourceVersion=10&allowWatchBookmarks=true');
    assert.equal(fake.requests[1]!.url, '/api/v1/namespaces/ns/configmaps?watch=true&resourceVersion=12&allowWatchBookmarks=true');
  } finally {
    client.close();
    await fake.close();
  }
});

test('a non-200 answer ends the watch with its Status', async () => {
  const fake = await startFakeServer((_req, res) => {
    res.writeHead(410, { 'content-type': 'application/json' });
    res.end(JSON.stringify(gone('too old resource version: 1 (5)')));
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const events: WatchEvent[] = [];
    for await (const e of client.watch(cm, { resourceVersion: '1' })) events.push(e);
    assert.equal(events.length, 1);
    assert.equal(isResourceExpired(events[0]!), true);
    assert.equal((events[0]!.object as { message?: string }).message, 'too old resource version: 1 (5)');
  } finally {
    client.close();
    await fake.close();
  }
});

test('close() ends a watch that is waiting for events, and break ends the connection', async () => {
  let open = 0;
  const fake = await startFakeServer((_req, res) => {
    open++;
    res.on('close', () => open--);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(ev('ADDED', 'x', '3'));
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const w = client.watch(cm);
    const seen: string[] = [];
    setTimeout(() => w.close(), 100);
    for await (const e of w) seen.push(e.type);
    assert.deepEqual(seen, ['ADDED']);

    const w2 = client.watch(cm);
    for await (const e of w2) {
      assert.equal(e.type, 'ADDED');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(open, 0);
  } finally {
    client.close();
    await fake.close();
  }
});

test('gives up with an ERROR event after repeated connection failures', async () => {
  const fake = await startFakeServer(() => undefined);
  const url = fake.url;
  await fake.close();
  const client = createClient({ server: url, namespace: 'default' });
  const events: WatchEvent[] = [];
  for await (const e of client.watch(cm, { maxRetries: 2, retryDelayMs: 5 })) events.push(e);
  client.close();
  assert.equal(events.length, 1);
  assert.equal(events[0]!.type, 'ERROR');
  assert.equal((events[0]!.object as { code?: number }).code, 0);
});

test('transient failures (a 503 answer, an ERROR event with a 5xx Status) are retried from the last resourceVersion', async () => {
  const asked: string[] = [];
  let connection = 0;
  const fake = await startFakeServer((req, res) => {
    connection++;
    asked.push(new URL(req.url ?? '', 'http://x').searchParams.get('resourceVersion') ?? '');
    if (connection === 1) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(ev('ADDED', 'a', '11'));
      res.end(JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'ServiceUnavailable', message: 'storage unavailable', code: 503 } }) + '\n');
    } else if (connection === 2) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'ServiceUnavailable', message: 'storage unavailable', code: 503 }));
    } else if (connection === 3) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(ev('ADDED', 'b', '12'));
      res.end(JSON.stringify({ type: 'ERROR', object: gone('too old resource version: 12 (20)') }) + '\n');
    }
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const events: WatchEvent[] = [];
    for await (const e of client.watch(cm, { resourceVersion: '10', retryDelayMs: 10 })) events.push(e);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'ERROR']);
    assert.equal(isResourceExpired(events[2]!), true, 'a 410 still ends the watch');
    assert.deepEqual(asked, ['10', '11', '11']);
  } finally {
    client.close();
    await fake.close();
  }
});
