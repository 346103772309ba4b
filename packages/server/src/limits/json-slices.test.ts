import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cloneSteps, cloneYielding, parseJsonSteps, parseSliceChars, sliceMembers, stringifySteps, stringifyYielding,
} from './json-slices.js';
import { runSteps, runStepsCounted } from './turn-budget.js';

const keys = (n: number, value: (i: number) => unknown = () => 'v'): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) out[`k${i}`] = value(i);
  return out;
};

/** Large values of the shapes the server stores: wide maps, long lists of small objects, both nested. */
function largeValues(): unknown[] {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', managedFields: [{ manager: 'm', fieldsV1: { 'f:data': keys(12_000, () => ({})) } }] }, data: keys(12_000) },
    { spec: { containers: [{ name: 'c', env: Array.from({ length: 8_000 }, (_, i) => ({ name: `E${i}`, value: i % 3 === 0 ? null : `v${i}`, n: i / 7 })) }] } },
    Array.from({ length: 12_000 }, (_, i) => (i % 2 === 0 ? [i, true, 'ü\u2028"\\', { a: [1e-7, -0, 1e21] }] : i)),
    { nested: { deeper: keys(10_000, (i) => (i % 100 === 0 ? keys(50) : i)) }, '10': 1, '2': 2, '': 'empty' },
  ];
}

test('large JSON texts parse in slices into exactly what JSON.parse makes, whatever the whitespace', () => {
  for (const value of largeValues()) {
    for (const text of [JSON.stringify(value), JSON.stringify(value, undefined, 2), ` \n\t${JSON.stringify(value, undefined, '\t')}\r\n `]) {
      assert.ok(text.length > parseSliceChars);
      const { value: parsed, yields } = runStepsCounted(parseJsonSteps(text));
      assert.deepEqual(parsed, { ok: true, value: JSON.parse(text) as unknown });
      // Key order too (deepEqual does not look at it): the same text again.
      assert.equal(JSON.stringify((parsed as { value: unknown }).value), JSON.stringify(JSON.parse(text)));
      assert.ok(yields >= Math.floor(text.length / parseSliceChars) - 1, `${yields} yields for ${text.length} characters`);
    }
  }
});

test('sliced parsing keeps JSON.parse semantics: the last duplicate wins in the first place, __proto__ is a key', () => {
  const members = Array.from({ length: 20_000 }, (_, i) => `"k${i}":"${'x'.repeat(8)}"`);
  const text = `{"d":{${members.join(',')},"k5":"again","__proto__":{"polluted":true},"k0":"last"}}`;
  const parsed = runSteps(parseJsonSteps(text));
  assert.ok(parsed.ok);
  const expected = JSON.parse(text) as { d: Record<string, unknown> };
  const got = parsed.value as { d: Record<string, unknown> };
  assert.deepEqual(Object.keys(got.d), Object.keys(expected.d));
  assert.equal(got.d['k0'], 'last');
  assert.equal(got.d['k5'], 'again');
  assert.equal(Object.getPrototypeOf(got.d), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(got.d, '__proto__')?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});

test('malformed large texts fail with JSON.parse own message for the whole text', () => {
  const good = JSON.stringify({ data: keys(20_000) });
  const broken = [
    good.slice(0, -1),
    `${good.slice(0, -2)},}}`,
    good.replace('"k100":"v"', '"k100" "v"'),
    good.replace('"k100":"v",', '"k100":"v" '),
    good.replace('"k200":"v"', '"k200":v'),
    `${good}x`,
    `${good}{}`,
    good.replace('"k300"', 'k300'),
    `[${good},]`,
    good.replace('"k400":"v"', '"k400":"v\\q"'),
  ];
  for (const text of broken) {
    let message = '';
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    assert.notEqual(message, '');
    assert.deepEqual(runSteps(parseJsonSteps(text)), { ok: false, message });
  }
  assert.deepEqual(runSteps(parseJsonSteps('  ')).ok, false);
});

test('large values serialize in slices to the bytes JSON.stringify writes', () => {
  const withHoles: unknown[] = Array.from({ length: sliceMembers * 2 }, (_, i) => (i % 5 === 0 ? undefined : i % 7 === 0 ? () => i : i));
  const sparse = { skipped: undefined, fn: () => 1, date: new Date(0), list: withHoles, map: keys(sliceMembers * 2, (i) => (i % 9 === 0 ? undefined : [i, { x: null }])) };
  for (const value of [...largeValues(), sparse]) {
    const { value: text, yields } = runStepsCounted(stringifySteps(value));
    assert.equal(text, JSON.stringify(value));
    assert.ok(yields > 0);
  }
  for (const small of [{ a: 1 }, [1, 'x'], 'text', 1, null, undefined]) assert.equal(runSteps(stringifySteps(small)), JSON.stringify(small));
});

test('large values are copied in slices to what structuredClone makes, sharing nothing with the original', () => {
  for (const value of largeValues()) {
    const { value: copy, yields } = runStepsCounted(cloneSteps(value));
    assert.deepEqual(copy, structuredClone(value));
    assert.equal(JSON.stringify(copy), JSON.stringify(value));
    assert.ok(yields > 0);
  }
  const original = { data: keys(sliceMembers * 2, () => ({ n: 1 })), kept: undefined };
  const copy = runSteps(cloneSteps(original));
  (copy.data['k0'] as { n: number }).n = 2;
  assert.equal((original.data['k0'] as { n: number }).n, 1);
  assert.ok('kept' in copy);
});

test('a large value being encoded or copied lets other work of the event loop run before it is done', async () => {
  const value = { data: keys(100_000, (i) => ({ i })) };
  for (const work of [() => stringifyYielding(value), () => cloneYielding(value)]) {
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    let done = false;
    const finished = work().then(() => (done = true));
    assert.equal(done, false);
    await finished;
    assert.ok(ranBetween, 'an immediate queued at the start ran before the work ended');
  }
});
