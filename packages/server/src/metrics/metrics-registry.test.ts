import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMetricsRegistry, shouldHide, validateShowHiddenMetricsVersion } from './metrics-registry.js';
import { parseExposition, sampleValue } from './testing/exposition.js';

test('counters, gauges and histograms: values by labels, exposition with stability classes', async () => {
  const m = createMetricsRegistry({ warn: () => {} });
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
  const g = m.gauge('level', 'A level.', ['at'], 'BETA');
  g.set({ at: 'top' }, 7);
  g.inc({ at: 'top' });
  g.dec({ at: 'top' }, 3);
  assert.equal(await g.get({ at: 'top' }), 5);
  let read = 0;
  m.gauge('read_at_scrape', 'Read when scraped.', ['n'], 'ALPHA', { collect: (set) => set({ n: String(++read) }, read * 10) });
  const text = await m.exposition();
  const parsed = parseExposition(text);
  assert.equal(parsed.get('things_total')?.help, '[ALPHA] Things counted.');
  assert.equal(parsed.get('things_total')?.type, 'counter');
  assert.equal(sampleValue(parsed, 'things_total', { kind: 'a' }), 3);
  assert.equal(parsed.get('took_seconds')?.help, '[STABLE] Time taken.');
  assert.equal(sampleValue(parsed, 'took_seconds_bucket', { op: 'x', le: '1' }), 2);
  assert.equal(parsed.get('level')?.help, '[BETA] A level.');
  assert.equal(sampleValue(parsed, 'level', { at: 'top' }), 5);
  assert.equal(sampleValue(parsed, 'read_at_scrape', { n: '1' }), 10);
  const again = parseExposition(await m.exposition());
  assert.equal(sampleValue(again, 'read_at_scrape', { n: '1' }), undefined, 'a collector\'s values are read afresh');
  assert.equal(sampleValue(again, 'read_at_scrape', { n: '2' }), 20);
  // kube's meta metrics: four metrics declared, by stability level.
  assert.equal(sampleValue(again, 'registered_metric_total', { stability_level: 'ALPHA', deprecated_version: '' }), 2);
  assert.equal(sampleValue(again, 'registered_metric_total', { stability_level: 'STABLE', deprecated_version: '' }), 1);
});

test('deprecated metrics: noted in help and warned about; deprecated before this release: hidden until shown', async () => {
  const warnings: string[] = [];
  const m = createMetricsRegistry({ release: '1.27', warn: (w) => warnings.push(w) });
  const current = m.counter('current_total', 'Deprecated now.', [], 'ALPHA', { deprecatedVersion: '1.27' });
  const old = m.counter('old_total', 'Deprecated a release ago.', [], 'STABLE', { deprecatedVersion: '1.26' });
  const older = m.histogram('older_seconds', 'Deprecated long ago.', [], [1], 'ALPHA', { deprecatedVersion: '1.25' });
  const future = m.gauge('future', 'Deprecated later.', [], 'BETA', { deprecatedVersion: '1.28' });
  current.inc({});
  old.inc({});
  older.observe({}, 0.5);
  future.set({}, 1);
  assert.deepEqual(warnings, [
    'metric current_total is deprecated from 1.27; it will be hidden in a later release.',
    'metric future is deprecated from 1.28; it will be hidden in a later release.',
  ]);
  let parsed = parseExposition(await m.exposition());
  assert.equal(parsed.get('current_total')?.help, '[ALPHA] (Deprecated from 1.27) Deprecated now.');
  assert.equal(sampleValue(parsed, 'current_total', {}), 1);
  assert.equal(parsed.get('future')?.help, '[BETA] (Deprecated from 1.28) Deprecated later.');
  assert.equal(parsed.has('old_total'), false);
  assert.equal(parsed.has('older_seconds'), false);
  assert.deepEqual(m.hidden().sort(), ['old_total', 'older_seconds']);
  assert.equal(sampleValue(parsed, 'hidden_metric_total', {}), 2);
  assert.equal(sampleValue(parsed, 'registered_metric_total', { stability_level: 'ALPHA', deprecated_version: '1.27.0' }), 1);

  m.disable(['older_seconds']);
  m.showHidden();
  assert.deepEqual(warnings.slice(2), ['Hidden metrics (old_total) have been manually overridden, showing this very deprecated metric.']);
  parsed = parseExposition(await m.exposition());
  assert.equal(parsed.get('old_total')?.help, '[STABLE] (Deprecated from 1.26) Deprecated a release ago.');
  assert.equal(sampleValue(parsed, 'old_total', {}), 0, 'a hidden metric recorded nothing while hidden');
  old.inc({});
  assert.equal(sampleValue(parseExposition(await m.exposition()), 'old_total', {}), 1);
  assert.equal(parsed.has('older_seconds'), false, 'disabling wins over showing');
  assert.equal(sampleValue(parsed, 'disabled_metric_total', {}), 1);
  // Declared after showing: served at once, with kube's warning.
  m.counter('late_total', 'Late.', [], 'ALPHA', { deprecatedVersion: '1.20' });
  assert.ok(parseExposition(await m.exposition()).has('late_total'));
  assert.equal(warnings.at(-1), 'Hidden metrics (late_total) have been manually overridden, showing this very deprecated metric.');
});

test('disabled metrics are neither recorded nor served, declared before or after', async () => {
  const m = createMetricsRegistry({ warn: () => {} });
  m.disable(['later_total']);
  const now = m.counter('now_total', 'Now.', [], 'ALPHA');
  now.inc({});
  m.disable(['now_total', 'now_total']);
  now.inc({});
  const later = m.counter('later_total', 'Later.', [], 'ALPHA');
  later.inc({});
  assert.equal(await later.value({}), 0, 'a disabled metric records nothing');
  const parsed = parseExposition(await m.exposition());
  assert.equal(parsed.has('now_total'), false);
  assert.equal(parsed.has('later_total'), false);
  assert.equal(sampleValue(parsed, 'disabled_metric_total', {}), 2);
});

test('hiding follows component-base: deprecated before the current minor release', () => {
  assert.equal(shouldHide('1.27', '1.27'), false);
  assert.equal(shouldHide('1.27', '1.26'), true);
  assert.equal(shouldHide('1.27', '1.26.3'), true);
  assert.equal(shouldHide('1.27', '1.28'), false);
  assert.equal(shouldHide('1.27', '0.99'), true);
  assert.equal(shouldHide('2.0', '1.30'), true);
});

test('--show-hidden-metrics-for-version takes only the previous minor release, with kube\'s message', () => {
  assert.equal(validateShowHiddenMetricsVersion(''), undefined);
  assert.equal(validateShowHiddenMetricsVersion('1.26'), undefined);
  const message = "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed";
  for (const odd of ['1.25', '1.27', '1.26.0', 'v1.26', ' 1.26', '1.26 ', '126', '1..26', '-1.26', '1.26\n', 'latest']) {
    assert.equal(validateShowHiddenMetricsVersion(odd), message, JSON.stringify(odd));
  }
});
