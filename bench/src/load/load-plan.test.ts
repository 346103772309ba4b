import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fill, parseTemplate, requestRenderer } from './load-plan.js';
import { LatencyHistogram } from './latency-histogram.js';

test('templates fill {c} {i} {n} {k} and leave other braces alone', () => {
  const t = parseTemplate('{"name":"cm-{c}-{i}","n":{n},"k":"{k}","x":{"y":"{z}"}}');
  assert.equal(fill(t, { c: 3, i: 7, n: 451, k: 2 }), '{"name":"cm-3-7","n":451,"k":"2","x":{"y":"{z}"}}');
  assert.equal(fill(parseTemplate('/plain'), { c: 0, i: 0, n: 0, k: 0 }), '/plain');
});

test('requests are whole HTTP/1.1 messages; constant ones are rendered once', () => {
  const get = requestRenderer({ method: 'GET', path: '/x', headers: { accept: 'application/json' }, expect: 200 }, '127.0.0.1:8443', 'tok');
  assert.equal(get.constant, true);
  assert.equal(get.render({ c: 1, i: 2, n: 3, k: 0 }).toString(), 'GET /x HTTP/1.1\r\nhost: 127.0.0.1:8443\r\nauthorization: Bearer tok\r\naccept: application/json\r\n\r\n');
  const post = requestRenderer({ method: 'POST', path: '/c/{c}', body: '{"v":"ü{i}"}', expect: 201 }, 'h:1');
  assert.equal(post.constant, false);
  assert.equal(post.render({ c: 4, i: 10, n: 0, k: 0 }).toString(), 'POST /c/4 HTTP/1.1\r\nhost: h:1\r\ncontent-length: 12\r\n\r\n{"v":"ü10"}');
});

test('latency percentiles within 1%, histograms merge by adding counts', () => {
  const a = new LatencyHistogram();
  const b = new LatencyHistogram();
  for (let i = 1; i <= 1000; i++) (i % 2 ? a : b).record(i / 10);
  const merged = new LatencyHistogram(a.toCounts());
  merged.add(b.toCounts());
  assert.equal(merged.count, 1000);
  for (const [p, want] of [[50, 50], [99, 99], [100, 100]] as const) {
    const got = merged.percentile(p);
    assert.ok(Math.abs(got - want) / want <= 0.011, `p${p} ${got} vs ${want}`);
  }
  assert.ok(Number.isNaN(new LatencyHistogram().percentile(50)));
});
