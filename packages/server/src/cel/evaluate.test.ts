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

test('a program knows which fields it selects of variables read only through field selections', () => {
  const p = compile("(!has(object.data) || size(object.data) <= 8) && object.kind == 'ConfigMap' && oldObject == null && request.name != ''", env);
  assert.ok(p.ok);
  assert.deepEqual([...p.value.fieldsRead.get('object')!].sort(), ['data', 'kind']);
  assert.deepEqual([...p.value.fieldsRead.get('request')!], ['name']);
  // Read whole (compared), indexed or passed to a function: every field is converted.
  assert.equal(p.value.fieldsRead.get('oldObject'), undefined);
  for (const e of ["object['data'].size() > 0", 'size(object) > 1', 'object.data.a == object.data.b && object != null']) {
    const q = compile(e, env);
    assert.ok(q.ok, e);
    assert.equal(q.value.fieldsRead.get('object'), undefined, e);
  }
});

test('an activation given the fields read converts only those, and evaluates as with the whole value', () => {
  const object = { kind: 'ConfigMap', metadata: { name: 'x', labels: { a: 'b' } }, data: { a: '1', b: '2' } };
  for (const [e, expected] of [
    ["has(object.data) && size(object.data) == 2 && !has(object.binaryData) && object.kind == 'ConfigMap'", true],
    ['has(object.spec)', false],
  ] as const) {
    const p = compile(e, env);
    assert.ok(p.ok, e);
    const fields = p.value.fieldsRead;
    assert.ok(fields.has('object'), e);
    const selected = activation(env, { object }, p.value.variables, fields);
    assert.deepEqual(Object.keys(selected.values['object'] as object).sort(), [...fields.get('object')!].filter((f) => f in object).sort());
    const whole = evaluate(p.value, activation(env, { object }, p.value.variables));
    assert.deepEqual(evaluate(p.value, selected), whole, e);
    assert.deepEqual(whole.ok && whole.value, expected, e);
  }
});
