import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '@svc-apiserver/api';
import { compileSchemaRules } from './compiled-rules.js';
import { validateRules } from './rule-validator.js';

const rules = (...r: Record<string, string>[]) => ({ 'x-kubernetes-validations': r });

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      ...rules(
        { rule: '!has(self.replicas) || !has(self.maxReplicas) || self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
        { rule: '!has(oldSelf.replicas) || self.replicas >= oldSelf.replicas', messageExpression: "'replicas may not shrink' + (oldSelf.replicas > 2 ? ' below 3' : '')" },
      ),
      properties: {
        replicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        ports: { type: 'array', maxItems: 10, items: { type: 'integer' }, ...rules({ rule: 'self.isSorted() && self.sum() < 100' }) },
        endpoint: { type: 'string', maxLength: 200, ...rules({ rule: "isURL(self) && url(self).getScheme() == 'https'", message: 'endpoint must be an https URL' }) },
        'x-name': { type: 'string', maxLength: 20 },
        'name.v2': { type: 'string', maxLength: 20 },
        namespace: { type: 'string', maxLength: 20 },
        labels: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 10, ...rules({ rule: "self != 'bad'" }) } },
        rules: {
          type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 }, weight: { type: 'integer' } },
            ...rules({ rule: 'self.weight >= oldSelf.weight', message: 'weight may not decrease' }),
          },
        },
      },
    },
  },
  ...rules(
    { rule: "!has(self.spec.x__dash__name) || self.spec.x__dash__name.startsWith('x')" },
    { rule: "!has(self.spec.name__dot__v2) || self.spec.name__dot__v2 != self.metadata.name" },
    { rule: "!has(self.spec.__namespace__) || self.spec.__namespace__ == 'ns'" },
  ),
};

const compiled = compileSchemaRules(schema, 'spec.versions[0].schema.openAPIV3Schema');
const root = compiled.root!;
const obj = (spec: Record<string, unknown>, name = 'a') => ({ apiVersion: 'x.io/v1', kind: 'W', metadata: { name }, spec });
const messages = (object: unknown, old?: unknown) => validateRules(root, object, old).map(fieldErrorMessage);

describe('CRD validation rules', () => {
  it('compile without errors', () => assert.deepEqual(compiled.errors, []));

  it('admit a valid object', () => {
    assert.deepEqual(messages(obj({ replicas: 1, maxReplicas: 3, ports: [1, 2], endpoint: 'https://a.example/x', labels: { a: 'ok' } })), []);
  });

  it('reject with the rule path, the schema type and the message', () => {
    const rows: [Record<string, unknown>, string][] = [
      [{ replicas: 5, maxReplicas: 3 }, 'spec: Invalid value: "object": replicas must not exceed maxReplicas'],
      [{ ports: [3, 1] }, 'spec.ports: Invalid value: "array": failed rule: self.isSorted() && self.sum() < 100'],
      [{ ports: [60, 70] }, 'spec.ports: Invalid value: "array": failed rule: self.isSorted() && self.sum() < 100'],
      [{ endpoint: 'http://a.example' }, 'spec.endpoint: Invalid value: "string": endpoint must be an https URL'],
      [{ endpoint: 'not a url' }, 'spec.endpoint: Invalid value: "string": endpoint must be an https URL'],
      [{ labels: { k: 'bad' } }, 'spec.labels[k]: Invalid value: "string": failed rule: self != \'bad\''],
      [{ 'x-name': 'yname' }, '<nil>: Invalid value: "object": failed rule: !has(self.spec.x__dash__name) || self.spec.x__dash__name.startsWith(\'x\')'],
      [{ namespace: 'other' }, '<nil>: Invalid value: "object": failed rule: !has(self.spec.__namespace__) || self.spec.__namespace__ == \'ns\''],
    ];
    for (const [spec, message] of rows) assert.deepEqual(messages(obj(spec)), [message], JSON.stringify(spec));
    assert.deepEqual(messages(obj({ 'name.v2': 'a' })).length, 1);
    assert.deepEqual(messages(obj({ 'name.v2': 'b' })), []);
  });

  it('run transition rules only on update, with messageExpression, correlating map-list items by key', () => {
    assert.deepEqual(messages(obj({ replicas: 1, rules: [{ name: 'a', weight: 1 }] })), []);
    assert.deepEqual(messages(obj({ replicas: 1 }), obj({ replicas: 3 })), ['spec: Invalid value: "object": replicas may not shrink below 3']);
    assert.deepEqual(messages(obj({ rules: [{ name: 'b', weight: 1 }, { name: 'a', weight: 1 }] }), obj({ rules: [{ name: 'a', weight: 2 }] })),
      ['spec.rules[1]: Invalid value: "object": weight may not decrease']);
  });

  it('refuse rules that do not compile, do not return bool, or use oldSelf where items cannot be correlated', () => {
    const bad = compileSchemaRules({
      type: 'object',
      properties: {
        a: { type: 'integer', ...rules({ rule: 'self <<<= (' }) },
        b: { type: 'integer', ...rules({ rule: 'self + 1' }) },
        c: { type: 'array', items: { type: 'integer', maxItems: 3, ...rules({ rule: 'self == oldSelf' }) }, maxItems: 3 },
        d: { type: 'string', ...rules({ rule: '' }) },
        e: { type: 'string', maxLength: 3, ...rules({ rule: 'self.size() > 0', messageExpression: 'self.size()' }) },
      },
    }, 'root');
    const text = bad.errors.map(fieldErrorMessage);
    assert.match(text[0]!, /^root\.properties\[a\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: "self <<<= \(": compilation failed: ERROR: <input>:1:/);
    assert.equal(text[1], 'root.properties[b].x-kubernetes-validations[0].rule: Invalid value: "self + 1": compilation failed: cel expression must evaluate to a bool');
    assert.equal(text[2], 'root.properties[c].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within root.properties[c]');
    assert.equal(text[3], 'root.properties[d].x-kubernetes-validations[0].rule: Required value: rule is not specified');
    assert.equal(text[4], 'root.properties[e].x-kubernetes-validations[0].messageExpression: Invalid value: "self.size()": messageExpression must evaluate to a string');
  });

  it('refuse a rule whose estimated cost is over the limit, naming the factor', () => {
    const heavy = compileSchemaRules({
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'string' }, ...rules({ rule: "self.all(x, self.all(y, x.matches('^' + y + '$')))" }) } },
    }, 'root');
    const text = heavy.errors.map(fieldErrorMessage);
    assert.ok(text.some((t) => /^root\.properties\[list\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x/.test(t)), text.join('\n'));
    assert.ok(text.some((t) => /^root: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget/.test(t)), text.join('\n'));
    const bounded = compileSchemaRules({
      type: 'object',
      properties: { list: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 }, ...rules({ rule: 'self.all(x, self.all(y, x != y || x == y))' }) } },
    }, 'root');
    assert.deepEqual(bounded.errors, []);
  });

  it('halt a rule over its runtime cost and stop once the object budget is spent', () => {
    const costly = compileSchemaRules({
      type: 'object',
      properties: { list: { type: 'array', maxItems: 3000, items: { type: 'integer' }, ...rules({ rule: 'self.all(x, self.all(y, x + y >= 0))' }) } },
    }, 'root');
    const big = { list: Array.from({ length: 3000 }, (_, i) => i) };
    const started = performance.now();
    const errors = validateRules(costly.root!, big, undefined).map(fieldErrorMessage);
    assert.ok(performance.now() - started < 5000);
    assert.deepEqual(errors, ['list: Invalid value: "array": was invalid: call cost exceeds limit for rule: self.all(x, self.all(y, x + y >= 0))']);
    const budgeted = validateRules(costly.root!, { list: Array.from({ length: 300 }, (_, i) => i) }, undefined, 1000).map(fieldErrorMessage);
    assert.deepEqual(budgeted, ['list: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run']);
  });
});
