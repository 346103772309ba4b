import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addQuantities, canonicalQuantity, compareQuantities, formatQuantity, parseQuantity, quantityMilliValue, quantityValue, unitQuantity, zeroQuantity } from './quantity.js';

test('prints quantities in the canonical form of Quantity.String()', () => {
  const cases: Array<[unknown, string]> = [
    ['0.5', '500m'], ['100m', '100m'], ['1000m', '1'], ['1000', '1k'], ['1500', '1500'], ['1024Mi', '1Gi'], ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'], ['1536', '1536'], ['2Gi', '2Gi'], ['1e3', '1e3'], ['1.5e3', '1500'], ['0', '0'], ['-1.5', '-1500m'],
    ['1n', '1n'], ['0.0000000001', '1n'], ['12345678u', '12345678u'], [3, '3'], ['3800m', '3800m'], ['1000E', '1000E'], ['100Gi', '100Gi'],
    ['not-a-quantity', 'not-a-quantity'],
  ];
  for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, String(input));
  assert.equal(parseQuantity(''), undefined);
  assert.equal(parseQuantity('1.2.3'), undefined);
});

test('sums keep the first non-zero format; values round up as Value() and MilliValue() do', () => {
  const sum = addQuantities(parseQuantity('64Mi')!, parseQuantity('1Gi')!);
  assert.equal(formatQuantity(sum), '1088Mi');
  assert.equal(formatQuantity(addQuantities(zeroQuantity, parseQuantity('1Ki')!)), '1Ki', 'a zero sum takes the added format');
  assert.equal(formatQuantity(addQuantities(parseQuantity('1')!, parseQuantity('200m')!)), '1200m');
  assert.equal(compareQuantities(parseQuantity('1')!, parseQuantity('1000m')!), 0);
  assert.equal(compareQuantities(parseQuantity('1Ki')!, parseQuantity('1k')!), 1);
  assert.equal(quantityValue(parseQuantity('100m')!), 1n);
  assert.equal(quantityMilliValue(parseQuantity('1.5')!), 1500n);
  assert.equal(quantityMilliValue(parseQuantity('0.0001')!), 1n);
  assert.equal(formatQuantity(unitQuantity(1048576n, 'BinarySI')), '1Mi');
});
