import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionVariables } from './admission-variables.js';
import { compile } from './compile.js';
import { celEnvironment } from './environment.js';
import { activation, evaluate } from './evaluate.js';

const env = celEnvironment(admissionVariables());

test('a program knows the variables it reads, macro expansions included', () => {
  const p = compile("has(object.data) && request.userInfo.groups.all(g, g != 'x')", env);
  assert.ok(p.ok);
  assert.ok(p.value.variables.has('object') && p.value.variables.has('request'));
  assert.ok(!p.value.variables.has('oldObject') && !p.value.variables.has('authorizer'));
});

test('an activation given the variables its programs read builds and converts only those', () => {
  const p = compile('size(object.data) == 2', env);
  assert.ok(p.ok);
  const read: string[] = [];
  const values = {
    get object() {
      read.push('object');
      return { data: { a: '1', b: '2' } };
    },
    get request() {
      read.push('request');
      return {};
    },
    oldObject: null,
  };
  const input = activation(env, values, p.value.variables);
  assert.deepEqual(read, ['object']);
  assert.deepEqual(Object.keys(input.values), ['object']);
  assert.deepEqual(evaluate(p.value, input), { ok: true, value: true, cost: evaluate(p.value, input).cost });
  // Without the list, every value is read, as before.
  read.length = 0;
  activation(env, values);
  assert.deepEqual(read.sort(), ['object', 'request']);
});
