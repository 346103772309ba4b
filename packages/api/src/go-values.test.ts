import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goBadValue, goFloat, goNumber, goQuote, goSharpV } from './go-values.js';

test('numbers: integral JSON numbers are int64s, the others float64s printed as strconv\'s shortest %g', () => {
  assert.equal(goNumber(1), '1');
  assert.equal(goNumber(-42), '-42');
  assert.equal(goNumber(12345678901), '12345678901');
  assert.equal(goNumber(1.5), '1.5');
  assert.equal(goNumber(0.0001), '0.0001');
  assert.equal(goNumber(0.00001), '1e-05');
  assert.equal(goNumber(1234567.5), '1.2345675e+06');
  assert.equal(goNumber(123456.5), '123456.5');
  assert.equal(goNumber(2 ** 64), '1.8446744073709552e+19');
  assert.equal(goFloat(1000000), '1e+06');
  assert.equal(goFloat(10), '10');
  assert.equal(goFloat(1.5e-7), '1.5e-07');
  assert.equal(goFloat(1e21), '1e+21');
});

test('strings: strconv.Quote escapes', () => {
  assert.equal(goQuote('plain'), '"plain"');
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('tab\tnew\nnul\u0000del\u007f'), '"tab\\tnew\\nnul\\x00del\\x7f"');
  assert.equal(goQuote('héllo ✓ 😀'), '"héllo ✓ 😀"');
  assert.equal(goQuote('\u200b\u{e0001}'), '"\\u200b\\U000e0001"');
});

test('%#v of decoded values: maps with sorted keys, lists, nil', () => {
  assert.equal(goSharpV({ b: 'x', a: 1 }), 'map[string]interface {}{"a":1, "b":"x"}');
  assert.equal(goSharpV([1.5, 'x', true, null, { n: [] }]), '[]interface {}{1.5, "x", true, interface {}(nil), map[string]interface {}{"n":[]interface {}{}}}');
  assert.equal(goSharpV({}), 'map[string]interface {}{}');
});

test('a bad value as field.Error prints it: nil as null, scalars as %v or %q, the rest as %#v', () => {
  assert.equal(goBadValue(null), 'null');
  assert.equal(goBadValue(7), '7');
  assert.equal(goBadValue(false), 'false');
  assert.equal(goBadValue('s'), '"s"');
  assert.equal(goBadValue({ a: 1 }), 'map[string]interface {}{"a":1}');
  assert.equal(goBadValue(['x']), '[]interface {}{"x"}');
});
