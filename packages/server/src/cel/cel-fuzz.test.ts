/**
 * Seeded fuzzing of compile and evaluate: random well-formed and malformed expressions and deep nestings never make
 * either throw, and no evaluation runs past its cost limit or takes long.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { compile } from './compile.js';
import { celEnvironment } from './environment.js';
import { activation, evaluate } from './evaluate.js';
import { declTypeOf } from './schema-types.js';
import { seededRandom as random } from '../testing/seeded-random.js';


const selfType = declTypeOf({
  type: 'object',
  properties: {
    n: { type: 'integer' },
    s: { type: 'string' },
    l: { type: 'array', items: { type: 'string' } },
    m: { type: 'object', additionalProperties: { type: 'integer' } },
    o: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'integer' } } } },
  },
}, { typeName: 'Fuzz' })!;
const env = celEnvironment([{ name: 'self', type: selfType }]);
const act = activation(env, {
  self: { n: 7, s: 'hello world', l: Array.from({ length: 300 }, (_, i) => `v${i}`), m: { a: 1, b: 2 }, o: { a: 'x', b: [1, 2, 3] } },
});

const leaves = ['self.n', 'self.s', 'self.l', 'self.m', 'self.o', 'self.o.a', 'self.o.b', '1', '-3', '2.5', "'ab'", 'true', 'null', '[]', '[1, 2]', "{'k': 1}", 'b"x"', '0u', "duration('1s')", "timestamp('2020-01-01T00:00:00Z')", 'x', 'y'];
const binary = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||', 'in'];
const unary = ['!', '-'];
const methods = ['size()', "matches('^(a+)+$')", "find('[a-z]+')", "findAll('.')", 'lowerAscii()', 'upperAscii()', 'trim()', "split(' ')", 'join()', "indexOf('o')", "lastIndexOf('o')", 'charAt(1)', "replace('l', 'L')", 'substring(1)', 'isSorted()', 'sum()', 'min()', 'max()', 'all(x, x == x)', 'exists(x, true)', 'exists_one(x, false)', 'map(x, x)', 'filter(x, x != x)', 'map(x, self.l.map(y, y))', "startsWith('h')", "contains('l')"];
const functions = ['size', 'int', 'string', 'double', 'bytes', 'type', 'dyn', 'has', 'isURL', 'url', 'matches', 'duration', 'timestamp'];
const junk = ['(', ')', '[', ']', '{', '}', ',', '.', '?', ':', '"', "'", '\\', '`', '@', '#', '$', ' ', '\n', '.?', '[?', 'cel.bind(', 'k8s__trim(', '0x', '1e', '9223372036854775808', '\u0000', '😀'];

function expression(rnd: () => number, depth: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  if (depth <= 0 || rnd() < 0.25) return pick(leaves);
  switch (Math.floor(rnd() * 6)) {
    case 0: return `${expression(rnd, depth - 1)} ${pick(binary)} ${expression(rnd, depth - 1)}`;
    case 1: return `${pick(unary)}${expression(rnd, depth - 1)}`;
    case 2: return `(${expression(rnd, depth - 1)}).${pick(methods)}`;
    case 3: return `${pick(functions)}(${expression(rnd, depth - 1)})`;
    case 4: return `${expression(rnd, depth - 1)} ? ${expression(rnd, depth - 1)} : ${expression(rnd, depth - 1)}`;
    default: return `[${expression(rnd, depth - 1)}, ${expression(rnd, depth - 1)}]`;
  }
}

function mangle(rnd: () => number, text: string): string {
  const chars = [...text];
  const edits = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rnd() * (chars.length + 1));
    if (rnd() < 0.5) chars.splice(at, 1);
    else chars.splice(at, 0, junk[Math.floor(rnd() * junk.length)]!);
  }
  return chars.join('');
}

const costLimit = 200_000;

function exercise(text: string): void {
  let compiled: ReturnType<typeof compile>;
  try {
    compiled = compile(text, env);
  } catch (e) {
    assert.fail(`compile threw on ${JSON.stringify(text)}: ${(e as Error).stack}`);
  }
  if (!compiled.ok) {
    assert.equal(typeof compiled.error.message, 'string');
    return;
  }
  const started = process.hrtime.bigint();
  let result: ReturnType<typeof evaluate>;
  try {
    result = evaluate(compiled.value, act, { costLimit });
  } catch (e) {
    assert.fail(`evaluate threw on ${JSON.stringify(text)}: ${(e as Error).stack}`);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.ok(ms < 1000, `${text} took ${ms} ms`);
  if (result.ok) assert.ok(result.cost <= costLimit, `${text} cost ${result.cost}`);
  else if (result.error.kind === 'cost') assert.ok(result.cost > costLimit);
}

describe('fuzzing compile and evaluate', () => {
  it('random expressions', () => {
    const rnd = random(18);
    for (let i = 0; i < 1500; i++) exercise(expression(rnd, 4));
  });

  it('malformed expressions', () => {
    const rnd = random(27);
    for (let i = 0; i < 1500; i++) exercise(mangle(rnd, expression(rnd, 3)));
    for (let i = 0; i < 300; i++) exercise(Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => junk[Math.floor(rnd() * junk.length)]).join(''));
  });

  it('deep nestings', () => {
    for (const n of [50, 99, 100, 101, 500, 5000, 50_000]) {
      exercise(`${'('.repeat(n)}1${')'.repeat(n)}`);
      exercise(`${'['.repeat(n)}1${']'.repeat(n)}`);
      exercise(`${'!'.repeat(n)}true`);
      exercise(`${'-'.repeat(n)}1`);
      exercise(`self${'.o'.repeat(n)}`);
      exercise(Array.from({ length: n }, () => 'self.n').join(' + '));
      exercise(Array.from({ length: n }, () => 'true').join(' && '));
      exercise(`${'self.l.all(x, '.repeat(Math.min(n, 200))}true${')'.repeat(Math.min(n, 200))}`);
      exercise(`${'size('.repeat(n)}'a'${')'.repeat(n)}`);
      exercise(`${'('.repeat(n)}`);
    }
  });

  it('expensive expressions stop at their limit', () => {
    for (const text of ['self.l.all(a, self.l.all(b, self.l.all(c, a + b + c != "")))', 'self.l.map(a, self.l.map(b, a + b)).size()', "self.l.exists(a, self.l.exists(b, (a + b).matches('^(a+)+$')))"]) {
      const c = compile(text, env);
      assert.ok(c.ok, text);
      const r = evaluate(c.value, act, { costLimit });
      assert.equal(r.ok ? 'ok' : r.error.kind, 'cost', text);
    }
  });
});
