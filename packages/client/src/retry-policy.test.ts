import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryAfterMs, retryDelay } from './retry-policy.js';
import { createClient } from './rest-client.js';
import { sendJson, startFakeServer } from './testing/fake-server.js';

test('retry decisions: reads on 429, 5xx and no answer; writes only on 429; Retry-After honoured; never 501 or other 4xx', () => {
  assert.equal(retryAfterMs('2'), 2000);
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 9_000), 1000);
  assert.equal(retryAfterMs('soon'), undefined);
  assert.equal(retryDelay({ method: 'POST', status: 429, retryAfter: '1' }, 1), 1000);
  assert.equal(retryDelay({ method: 'POST', status: 503 }, 1), undefined);
  assert.equal(retryDelay({ method: 'POST', status: 504, retryAfter: '1' }, 1), undefined, 'a write that timed out may have been stored');
  assert.ok((retryDelay({ method: 'PATCH', status: 429 }, 1) ?? 0) > 0);
  assert.equal(retryDelay({ method: 'GET', status: 500, retryAfter: '2' }, 1), 2000);
  assert.ok((retryDelay({ method: 'GET', status: 503 }, 3, { baseDelayMs: 100 }) ?? 0) >= 400);
  assert.equal(retryDelay({ method: 'GET', status: 501 }, 1), undefined);
  assert.equal(retryDelay({ method: 'GET', status: 404 }, 1), undefined);
  assert.equal(retryDelay({ method: 'GET', status: 0 }, 1, { maxRetries: 0 }), undefined);
  assert.equal(retryDelay({ method: 'PUT', status: 429, retryAfter: '100' }, 1, { maxDelayMs: 50 }), 50);
});

test('a throttled write is sent again after Retry-After; pages are read until the continue token runs out', async (t) => {
  let throttled = 2;
  const fake = await startFakeServer((req, res) => {
    if (req.method === 'POST' && throttled-- > 0) {
      res.setHeader('retry-after', '0');
      sendJson(res, 429, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'TooManyRequests', code: 429, message: 'slow down' });
      return;
    }
    if (req.method === 'POST') return sendJson(res, 201, JSON.parse(req.body));
    const u = new URL(req.url, 'http://x');
    const start = Number(u.searchParams.get('continue') ?? '0');
    const limit = Number(u.searchParams.get('limit'));
    if (start === 4 && u.searchParams.get('continue') !== null) {
      return sendJson(res, 410, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'expired' });
    }
    const all = Array.from({ length: 5 }, (_, i) => ({ metadata: { name: `o${i}` } }));
    const items = limit > 0 ? all.slice(start, start + limit) : all.slice(start);
    const next = limit > 0 && start + limit < all.length ? String(start + limit) : undefined;
    sendJson(res, 200, { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '9', ...(next ? { continue: next } : {}) }, items });
  });
  t.after(() => fake.close());
  const client = createClient({ server: fake.url, namespace: 'default' });
  t.after(() => client.close());
  const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
  const created = await client.create(ref, { metadata: { name: 'a' } });
  assert.ok(created.ok, 'succeeds on the third attempt');
  assert.equal(fake.requests.filter((r) => r.method === 'POST').length, 3);
  const all = await client.listAll(ref, { limit: 2 });
  assert.ok(all.ok);
  // pages 0-1 and 2-3, then the token "4" has expired: one full list replaces them
  assert.deepEqual(all.value.items.map((i) => i.metadata?.name), ['o0', 'o1', 'o2', 'o3', 'o4']);
  assert.equal(all.value.metadata.continue, undefined);
  const pages: number[] = [];
  for await (const p of client.listPages(ref, { limit: 3 })) if (p.ok) pages.push(p.value.items.length);
  assert.deepEqual(pages, [3, 2]);
});
