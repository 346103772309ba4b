import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { compile, type Program } from './compile.js';
import { estimateCost } from './cost-estimator.js';
import { celEnvironment } from './environment.js';
import { activation, evaluate } from './evaluate.js';
import {
  costErrorMessage, costLimitExceededMessage, crdCostErrorMessage, maxCardinality, maxRequestSizeBytes, perCallLimit, ruleCostErrorMessage,
  staticEstimatedCostLimit,
} from './limits.js';
import { declTypeOf, type StructuralSchema } from './schema-types.js';

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    name: { type: 'string', maxLength: 63 },
    free: { type: 'string' },
    bounded: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } },
    unbounded: { type: 'array', items: { type: 'string' } },
    nested: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
  },
};
const selfType = declTypeOf(schema, { typeName: 'Costly' })!;
const env = celEnvironment([{ name: 'self', type: selfType }]);

function program(expression: string): Program {
  const c = compile(expression, env);
  assert.ok(c.ok, c.ok ? '' : c.error.message);
  return c.value;
}

describe('estimated cost', () => {
  const rows: readonly [string, number, number][] = [
    ['self.replicas <= 5', 3, 3],
    ['true', 0, 0],
    // a list literal's base cost is document 3's 40, plus 1 for size()
    ['[1, 2, 3].size()', 41, 41],
    ["{'a': 1}.size()", 31, 31],
    ["self.name == 'x'", 3, 3],
    ["self.name.startsWith('ab')", 3, 3],
    // target 2 + (1..ceil(253 × 0.1)) × ceil(8 × 0.25)
    ["self.name.matches('^[a-z]+$')", 4, 54],
    // range 2 + result 1 + up to 10 × (loop 3 + predicate 3)
    ['self.bounded.all(x, x.size() < 3)', 3, 63],
    ["self.bounded.exists(x, x == 'a')", 3, 63],
    // range 2 + [] 10 + result 1 + up to 10 × (12 + x + x: 2 + ceil(40 × 0.1)), then size() 1
    ['self.bounded.map(x, x + x).size()', 14, 194],
    // each walk: 2 + 10 × (1 + ceil(20 × 0.1))
    ["self.bounded.isSorted() && self.bounded.indexOf('a') >= 0", 2, 65],
    // a string without maxLength is as long as a request
    ["self.free.lowerAscii() == ''", 3, 3 + Math.ceil((maxRequestSizeBytes - 2) * 0.1)],
  ];
  for (const [expression, min, max] of rows) {
    it(expression, () => {
      const e = estimateCost(program(expression));
      assert.equal(e.min, min, `min ${JSON.stringify(e)}`);
      assert.equal(e.max, max, `max ${JSON.stringify(e)}`);
    });
  }

  it('an unbounded list walked with a nested walk is over the limit; bounding it brings it under', () => {
    const heavy = estimateCost(program('self.nested.all(l, l.all(s, s.contains("x")))'));
    assert.ok(heavy.max > staticEstimatedCostLimit, String(heavy.max));
    const light = estimateCost(program('self.bounded.all(s, s.contains("x"))'));
    assert.ok(light.max < staticEstimatedCostLimit, String(light.max));
  });

  it('runtime cost stays within the estimate', () => {
    const e = env;
    const act = activation(e, { self: { replicas: 2, name: 'abc', free: 'hello', bounded: ['a', 'bb', 'ccc'], unbounded: ['x'], nested: [['y']] } });
    for (const expression of ['self.replicas <= 5', "self.bounded.exists(x, x == 'a')", 'self.bounded.all(x, x.size() < 3)', 'self.bounded.map(x, x + x).size()', "self.name.matches('^[a-z]+$')"]) {
      const p = program(expression);
      const r = evaluate(p, act);
      assert.ok(r.ok);
      const est = estimateCost(p);
      assert.ok(r.cost <= est.max, `${expression}: ${r.cost} > ${est.max}`);
    }
  });
});

describe('cost messages and limits', () => {
  it('words exceeded estimates as kube-apiserver does', () => {
    assert.equal(costErrorMessage('estimated rule cost', 12_000_000, 10_000_000),
      'estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)');
    assert.match(costErrorMessage('estimated rule cost', 25_000_000, 10_000_000), /by factor of 2\.5x /);
    assert.match(ruleCostErrorMessage(2e10), /^estimated rule cost exceeds budget by factor of more than 100x/);
    assert.match(crdCostErrorMessage(2e8), /^x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2\.0x/);
  });

  it('estimates how often a rule under unbounded lists runs', () => {
    assert.equal(maxCardinality(2), Math.floor(maxRequestSizeBytes / 3));
  });
});

describe('runtime cost limit', () => {
  const e = celEnvironment([{ name: 'self', type: selfType }]);
  const big = Array.from({ length: 2000 }, (_, i) => `item-${i}`);
  const act = activation(e, { self: { unbounded: big } });

  it('halts an evaluation over the per-call limit with cel-go\'s error', () => {
    const p = program('self.unbounded.all(a, self.unbounded.all(b, a == b || a != b))');
    const started = Date.now();
    const r = evaluate(p, act);
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error.kind, 'cost');
    assert.equal(r.ok ? '' : r.error.message, costLimitExceededMessage);
    assert.ok(r.cost > perCallLimit && r.cost < perCallLimit + 100, String(r.cost));
    assert.ok(Date.now() - started < 5000);
  });

  it('a halt is not absorbed by || or a quantifier', () => {
    const p = program('self.unbounded.exists(a, self.unbounded.exists(b, a + b == "")) || true');
    const r = evaluate(p, act, { costLimit: 10_000 });
    assert.equal(r.ok ? '' : r.error.message, costLimitExceededMessage);
  });

  it('reports the cost used so that callers can share a budget', () => {
    const p = program("self.unbounded.exists(a, a == 'item-5')");
    const r = evaluate(p, act);
    assert.ok(r.ok);
    assert.ok(r.cost > 5 * 4 && r.cost < 100, String(r.cost));
  });
});
