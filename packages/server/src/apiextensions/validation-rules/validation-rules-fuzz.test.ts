/**
 * Seeded fuzzing of expressions where users write them: CRD validation rules over random schemas and objects, and
 * policy validations and match conditions over random requests. Whatever the expression, compiling answers with
 * field errors (never an exception), evaluating answers with field errors or a decision, and no evaluation runs
 * past its cost limit.
 */
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { seededRandom } from '../../testing/seeded-random.js';
import { validateMatchConditions, evaluateMatchConditions } from '../../cel/match-conditions.js';
import { validatePolicy } from '../../registry/resources/validating-admission-policies.js';
import { compileSchemaRules } from './compiled-rules.js';
import { validateRules } from './rule-validator.js';

const fragments = [
  'self', 'oldSelf', 'self.a', 'self.list', 'self.name', 'object', 'request.operation', 'params', '1', '2.5', "'x'", 'true', 'null', '[1, 2]',
  '{"k": 1}', 'size(self.list)', 'self.list.all(x, x > 0)', 'self.list.exists(x, x == 1)', 'self.list.map(x, x * 2)', "self.name.matches('^a+$')",
  "self.name.split('-')", "isURL(self.name)", 'self.list.sum()', 'self.list.isSorted()', 'has(self.a)', 'self.a / 0', "url('https://x').getHost()",
];
const operators = [' + ', ' - ', ' * ', ' == ', ' != ', ' < ', ' && ', ' || ', ' in ', '.', ' ? ', ' : ', '(', ')', '[', ']', ''];

function expression(r: () => number): string {
  let out = '';
  const n = 1 + Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    out += fragments[Math.floor(r() * fragments.length)]!;
    if (i < n - 1) out += operators[Math.floor(r() * operators.length)]!;
  }
  return out;
}

function randomValue(r: () => number): unknown {
  const pick = Math.floor(r() * 6);
  switch (pick) {
    case 0: return Math.floor(r() * 100) - 50;
    case 1: return 'a-b-' + 'a'.repeat(Math.floor(r() * 40));
    case 2: return Array.from({ length: Math.floor(r() * 6) }, () => Math.floor(r() * 10));
    case 3: return null;
    case 4: return { nested: r() > 0.5 };
    default: return r() > 0.5;
  }
}

test('random CRD rules compile to errors or programs, and evaluate within their limits', () => {
  const r = seededRandom(2718);
  for (let i = 0; i < 300; i++) {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'integer' },
        name: { type: 'string', maxLength: 64 },
        list: { type: 'array', maxItems: 8, items: { type: 'integer' } },
      },
      'x-kubernetes-validations': [{ rule: expression(r), ...(r() > 0.7 ? { messageExpression: expression(r) } : {}) }],
    };
    const compiled = compileSchemaRules(schema, 'schema');
    for (const e of compiled.errors) assert.ok(e.field.startsWith('schema'), e.field);
    if (compiled.root === undefined) continue;
    const object = { a: randomValue(r), name: randomValue(r), list: randomValue(r) };
    const old = r() > 0.5 ? { a: randomValue(r), name: 'x', list: [1] } : undefined;
    const errors = validateRules(compiled.root, object, old, 2_000_000);
    for (const e of errors) assert.equal(e.type, 'FieldValueInvalid');
  }
});

test('random policy validations and match conditions are checked on write and evaluated without throwing', async () => {
  const r = seededRandom(31415);
  for (let i = 0; i < 200; i++) {
    const text = expression(r).replaceAll('self', 'object.spec');
    const errors = validatePolicy({
      apiVersion: 'admissionregistration.svc.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
        validations: [{ expression: text }],
      },
    });
    for (const e of errors) assert.match(e.field, /^spec\.validations\[0\]\.expression$/);
    const conditions = [{ name: 'c', expression: text }];
    const written = validateMatchConditions(conditions, 'matchConditions', false);
    const outcome = await evaluateMatchConditions(conditions, {
      object: { spec: { a: randomValue(r), list: randomValue(r), name: randomValue(r) } }, oldObject: null,
      request: { operation: 'CREATE', userInfo: { username: 'u', groups: [] } },
    }, false);
    assert.ok(['match', 'skip', 'error'].includes(outcome.kind));
    if (written.length > 0) assert.equal(outcome.kind, 'error', `${text}: a condition that does not compile never matches`);
  }
});
