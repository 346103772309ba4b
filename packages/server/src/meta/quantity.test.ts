import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addQuantities, canonicalQuantity, compareQuantities, formatQuantity, milliValue, parseQuantity } from './quantity.js';

test('canonical forms as Quantity.String prints them', () => {
  const cases: [unknown, string][] = [
    ['1000m', '1'], ['0.1', '100m'], ['100m', '100m'], ['1.5', '1500m'], ['2000', '2k'], ['1500', '1500'],
    ['1024Mi', '1Gi'], ['1536Mi', '1536Mi'], ['1.5Gi', '1536Mi'], ['512', '512'], ['1Ki', '1Ki'], ['0.5Ki', '512'],
    ['1e3', '1e3'], ['0', '0'], ['-100m', '-100m'], [2, '2'], [0.25, '250m'], ['1G', '1G'], ['5n', '5n'], ['1n', '1n'],
    ['0.0000000001', '1n'], ['10Gi', '10Gi'], ['1M', '1M'], ['+1', '1'], ['3.', '3'], ['.5', '500m'],
  ];
  for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, `${String(input)}`);
});

test('malformed quantities are refused', () => {
  for (const bad of ['', 'abc', '1.2.3', '1KiB', '--1', 'Ki', '1e', {}, null, Number.NaN, '1e999']) {
    assert.equal(parseQuantity(bad), undefined, String(bad));
  }
});

test('arithmetic is exact and comparisons mix formats', () => {
  const sum = addQuantities(parseQuantity('100m')!, parseQuantity('200m')!);
  assert.equal(formatQuantity(sum), '300m');
  assert.equal(compareQuantities(parseQuantity('1Gi')!, parseQuantity('1073741824')!), 0);
  assert.equal(compareQuantities(parseQuantity('1G')!, parseQuantity('1Gi')!), -1);
  assert.equal(milliValue(parseQuantity('1.0001')!), 1001n);
});
