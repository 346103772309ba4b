import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMetricsRegistry, deprecationStage, validateShowHiddenMetricsVersion } from './metrics-registry.js';
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

test('deprecated metrics: noted in help and warned about; hidden at the release minus 3 until shown; deleted after', async () => {
  const warnings: string[] = [];
  const m = createMetricsRegistry({ release: '1.27', warn: (w) => warnings.push(w) });
  const current = m.counter('current_total', 'Deprecated now.', [], 'ALPHA', { deprecatedVersion: '1.27' });
  const old = m.counter('old_total', 'Deprecated two releases ago.', [], 'STABLE', { deprecatedVersion: '1.25' });
  const hidden = m.counter('hidden_total', 'Deprecated three releases ago.', [], 'STABLE', { deprecatedVersion: '1.24' });
  const alsoHidden = m.histogram('also_hidden_seconds', 'Deprecated three releases ago too.', [], [1], 'ALPHA', { deprecatedVersion: '1.24.3' });
  const gone = m.counter('gone_total', 'Deprecated four releases ago.', [], 'ALPHA', { deprecatedVersion: '1.23' });
  const future = m.gauge('future', 'Deprecated later.', [], 'BETA', { deprecatedVersion: '1.28' });
  current.inc({});
  old.inc({});
  hidden.inc({});
  alsoHidden.observe({}, 0.5);
  gone.inc({});
  future.set({}, 1);
  assert.deepEqual(warnings, [
    'metric current_total is deprecated from 1.27; it will be hidden in a later release.',
    'metric old_total is deprecated from 1.25; it will be hidden in a later release.',
    'metric gone_total was deprecated from 1.23 and is deleted in 1.27; it is not served.',
    'metric future is deprecated from 1.28; it will be hidden in a later release.',
  ]);
  let parsed = parseExposition(await m.exposition());
  assert.equal(parsed.get('current_total')?.help, '[ALPHA] (Deprecated from 1.27) Deprecated now.');
  assert.equal(sampleValue(parsed, 'current_total', {}), 1);
  assert.equal(parsed.get('old_total')?.help, '[STABLE] (Deprecated from 1.25) Deprecated two releases ago.');
  assert.equal(sampleValue(parsed, 'old_total', {}), 1);
  assert.equal(parsed.get('future')?.help, '[BETA] (Deprecated from 1.28) Deprecated later.');
  assert.equal(parsed.has('hidden_total'), false);
  assert.equal(parsed.has('also_hidden_seconds'), false);
  assert.equal(parsed.has('gone_total'), false);
  assert.deepEqual(m.hidden().sort(), ['also_hidden_seconds', 'gone_total', 'hidden_total']);
  assert.equal(sampleValue(parsed, 'hidden_metric_total', {}), 2);
  assert.equal(sampleValue(parsed, 'registered_metric_total', { stability_level: 'ALPHA', deprecated_version: '1.27.0' }), 1);

  m.disable(['also_hidden_seconds']);
  m.showHidden();
  assert.deepEqual(warnings.slice(4), ['Hidden metrics (hidden_total) have been manually overridden, showing this very deprecated metric.']);
  parsed = parseExposition(await m.exposition());
  assert.equal(parsed.get('hidden_total')?.help, '[STABLE] (Deprecated from 1.24) Deprecated three releases ago.');
  assert.equal(sampleValue(parsed, 'hidden_total', {}), 0, 'a hidden metric recorded nothing while hidden');
  hidden.inc({});
  assert.equal(sampleValue(parseExposition(await m.exposition()), 'hidden_total', {}), 1);
  assert.equal(parsed.has('also_hidden_seconds'), false, 'disabling wins over showing');
  assert.equal(parsed.has('gone_total'), false, 'a deleted metric is not shown again');
  assert.equal(sampleValue(parsed, 'disabled_metric_total', {}), 1);
  // Declared after showing: served at once, with kube's warning.
  m.counter('late_total', 'Late.', [], 'ALPHA', { deprecatedVersion: '1.24' });
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

test('a deprecated metric is served for three releases, hidden at the release minus 3, deleted a release later', () => {
  assert.equal(deprecationStage('1.27', '1.28'), 'served');
  assert.equal(deprecationStage('1.27', '1.27'), 'served');
  assert.equal(deprecationStage('1.27', '1.26'), 'served');
  assert.equal(deprecationStage('1.27', '1.25.3'), 'served');
  assert.equal(deprecationStage('1.27', '1.24'), 'hidden');
  assert.equal(deprecationStage('1.27', '1.24.9'), 'hidden');
  assert.equal(deprecationStage('1.27', '1.23'), 'deleted');
  assert.equal(deprecationStage('1.27', '0.99'), 'deleted');
  assert.equal(deprecationStage('2.0', '1.30'), 'deleted');
  assert.equal(deprecationStage('1.27', '2.0'), 'served');
});

test('--show-hidden-metrics-for-version takes only the previous minor release, with kube\'s message', () => {
  assert.equal(validateShowHiddenMetricsVersion(''), undefined);
  assert.equal(validateShowHiddenMetricsVersion('1.26'), undefined);
  const message = "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed";
  for (const odd of ['1.25', '1.27', '1.26.0', 'v1.26', ' 1.26', '1.26 ', '126', '1..26', '-1.26', '1.26\n', 'latest']) {
    assert.equal(validateShowHiddenMetricsVersion(odd), message, JSON.stringify(odd));
  }
});
