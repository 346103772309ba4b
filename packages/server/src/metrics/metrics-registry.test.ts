import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMetricsRegistry } from './metrics-registry.js';

test('counters and histograms: values by labels, exposition with stability classes', async () => {
  const m = createMetricsRegistry();
  const c = m.counter('things_total', 'Things counted.', ['kind'], 'ALPHA');
  c.inc({ kind: 'a' });
  c.inc({ kind: 'a' }, 2);
  assert.equal(m.counter('things_total', 'ignored', ['kind'], 'ALPHA'), c, 'a second declaration is the first');
  assert.equal(await c.value({ kind: 'a' }), 3);
  assert.equal(await c.value({ kind: 'b' }), 0);
  const h = m.histogram('took_seconds', 'Time taken.', ['op'], [0.1, 1], 'STABLE');
  h.observe({ op: 'x' }, 0.05);
  h.observe({ op: 'x' }, 0.5);
  h.observe({ op: 'x' }, 5);
  const s = await h.sample({ op: 'x' });
  assert.equal(s?.count, 3);
  assert.equal(s?.sum, 5.55);
  assert.deepEqual(s?.buckets, { '0.1': 1, '1': 2, '+Inf': 3 });
  assert.equal(await h.sample({ op: 'y' }), undefined);
  m.gauge('level', 'A level.', ['at']).set({ at: 'top' }, 7);
  const text = await m.exposition();
  assert.match(text, /^# HELP things_total \[ALPHA\] Things counted\.$/m);
  assert.match(text, /^things_total\{kind="a"\} 3$/m);
  assert.match(text, /^# HELP took_seconds \[STABLE\] Time taken\.$/m);
  assert.match(text, /^took_seconds_bucket\{le="1",op="x"\} 2$/m);
  assert.match(text, /^level\{at="top"\} 7$/m);
});
