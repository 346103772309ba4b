import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { compile } from './compile.js';
import { celEnvironment } from './environment.js';
import { activation, evaluate, evaluateAsync } from './evaluate.js';
import type { CelAuthorizationAttributes } from './cel-authorizer.js';
import { AuthorizerValue } from './library-authz.js';
import { authorizerType, declTypeOf, type DeclType } from './schema-types.js';
import { toJsonValue } from './values.js';

const env = celEnvironment([]);

function run(expression: string): unknown {
  const c = compile(expression, env);
  assert.ok(c.ok, `${expression}: ${c.ok ? '' : c.error.message}`);
  const r = evaluate(c.value, activation(env, {}));
  if (!r.ok) return { error: r.error.message };
  return toJsonValue(r.value);
}

type Row = readonly [expression: string, expected: unknown];
const err = (fragment: string): { error: string } => ({ error: fragment });

function table(name: string, rows: readonly Row[]): void {
  describe(name, () => {
    for (const [expression, expected] of rows) {
      it(expression, () => {
        const got = run(expression);
        if (typeof expected === 'object' && expected !== null && 'error' in expected) {
          assert.ok(typeof got === 'object' && got !== null && 'error' in got, `${expression} gave ${JSON.stringify(got)}`);
          assert.match((got as { error: string }).error, new RegExp((expected as { error: string }).error));
        } else {
          assert.deepEqual(got, expected);
        }
      });
    }
  });
}

table('strings extension', [
  ["'hello'.charAt(4)", 'o'],
  ["'hello'.charAt(5)", ''],
  ["'hello'.charAt(-1)", err('index out of range')],
  ["'h😀llo'.charAt(1)", '😀'],
  ["'hello mellow'.indexOf('')", 0],
  ["'hello mellow'.indexOf('ello')", 1],
  ["'hello mellow'.indexOf('jello')", -1],
  ["'hello mellow'.indexOf('', 2)", 2],
  ["'hello mellow'.indexOf('ello', 2)", 7],
  ["'hello mellow'.indexOf('ello', -1)", err('index out of range')],
  ["'😀😀x'.indexOf('x')", 2],
  ["'hello mellow'.lastIndexOf('')", 12],
  ["'hello mellow'.lastIndexOf('ello')", 7],
  ["'hello mellow'.lastIndexOf('jello')", -1],
  ["'hello mellow'.lastIndexOf('ello', 6)", 1],
  ["'hello mellow'.lastIndexOf('ello', -1)", err('index out of range')],
  ["'TacoCÆt Xii'.lowerAscii()", 'tacocÆt xii'],
  ["'TacoCæt Xii'.upperAscii()", 'TACOCæT XII'],
  ["'hello hello'.replace('he', 'we')", 'wello wello'],
  ["'hello hello'.replace('he', 'we', -1)", 'wello wello'],
  ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
  ["'hello hello'.replace('he', 'we', 0)", 'hello hello'],
  ["'hello'.replace('', '_')", '_h_e_l_l_o_'],
  ["'hello hello'.replace('h', '')", 'ello ello'],
  ["'hello hello hello'.split(' ')", ['hello', 'hello', 'hello']],
  ["'hello hello hello'.split(' ', 0)", []],
  ["'hello hello hello'.split(' ', 1)", ['hello hello hello']],
  ["'hello hello hello'.split(' ', 2)", ['hello', 'hello hello']],
  ["'hello hello hello'.split(' ', -1)", ['hello', 'hello', 'hello']],
  ["'a😀'.split('')", ['a', '😀']],
  ["'tacocat'.substring(4)", 'cat'],
  ["'tacocat'.substring(0, 4)", 'taco'],
  ["'tacocat'.substring(-1)", err('index out of range')],
  ["'tacocat'.substring(2, 1)", err('invalid substring range')],
  ["'😀tacocat'.substring(1, 5)", 'taco'],
  ["'  \\ttrim\\n    '.trim()", 'trim'],
  ["'\\u00a0x\\u0085'.trim()", 'x'],
  ["'\\ufeffx'.trim()", '\ufeffx'],
  ["['hello', 'mellow'].join()", 'hellomellow'],
  ["['hello', 'mellow'].join(' ')", 'hello mellow'],
  ['[].join()', ''],
  ["[].join('/')", ''],
]);

table('list library', [
  ['[1, 2, 3].isSorted()', true],
  ['[3, 1].isSorted()', false],
  ["['a', 'b', 'b'].isSorted()", true],
  ['[1, 2, 3].sum()', 6],
  ['[1.5, 2.5].sum()', 4],
  ['[].sum() == 0', true],
  ["[duration('1s'), duration('2m')].sum() == duration('121s')", true],
  ['[3, 1, 2].min()', 1],
  ['[3, 1, 2].max()', 3],
  ["['b', 'a'].min()", 'a'],
  ["[timestamp('2020-01-01T00:00:00Z'), timestamp('2019-01-01T00:00:00Z')].min() == timestamp('2019-01-01T00:00:00Z')", true],
  ['[].min()', err('empty list')],
  ['[9223372036854775807, 1].sum()', err('overflow')],
  ['[1, 2, 3, 2].indexOf(2)', 1],
  ['[1, 2, 3, 2].lastIndexOf(2)', 3],
  ["['a'].indexOf('b')", -1],
  ['[[1], [2]].indexOf([2])', 1],
]);

table('regex library', [
  ["'hello'.matches('^h.*o$')", true],
  ["'hello'.matches('ell')", true],
  ["matches('hello', 'x')", false],
  ["'abc 123 def 456'.find('[0-9]+')", '123'],
  ["'abc'.find('[0-9]+')", ''],
  ["'abc 123 def 456'.findAll('[0-9]+')", ['123', '456']],
  ["'abc 123 def 456'.findAll('[0-9]+', 1)", ['123']],
  ["'abc 123 def 456'.findAll('[0-9]+', 0)", []],
  ["'baaab'.findAll('a*')", ['', 'aaa', '']],
  ["'x'.matches(dyn('('))", err('missing closing')],
]);

table('URL library', [
  ["isURL('https://example.com:80/path?query=val#fragment')", true],
  ["isURL('https://example.com:80/path?query=val')", true],
  ["isURL('/absolute-path')", true],
  ["isURL('https://a:b@c/d')", true],
  ["isURL('example.com')", false],
  ["isURL('')", false],
  ["isURL('http://[::1]:80/x')", true],
  ["isURL('http://host:port/')", false],
  ["url('https://example.com:80/').getScheme()", 'https'],
  ["url('https://example.com:80/').getHost()", 'example.com:80'],
  ["url('https://[::1]:80/').getHost()", '[::1]:80'],
  ["url('https://example.com:80/').getHostname()", 'example.com'],
  ["url('https://[::1]:80/').getHostname()", '::1'],
  ["url('https://example.com:80/').getPort()", '80'],
  ["url('https://example.com/').getPort()", ''],
  ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
  ["url('https://example.com/a%2Fb').getEscapedPath()", '/a%2Fb'],
  ["url('https://example.com/').getEscapedPath()", '/'],
  ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
  ["url('https://example.com/path?key=a+b%20c').getQuery()", { key: ['a b c'] }],
  ["url('/path').getHost()", ''],
  ["url('not a url')", err('URL parse error')],
]);

describe('regular expressions run in linear time', () => {
  it('a ReDoS pattern on a long input finishes quickly', () => {
    const input = `${'a'.repeat(100_000)}!`;
    const t = declTypeOf({ type: 'string' }, { typeName: 'Self' })!;
    const e = celEnvironment([{ name: 'self', type: t }]);
    const c = compile("self.matches('^(a+)+$')", e);
    assert.ok(c.ok);
    const started = process.hrtime.bigint();
    const r = evaluate(c.value, activation(e, { self: input }), { costLimit: Number.MAX_SAFE_INTEGER });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.deepEqual(r.ok && r.value, false);
    // A backtracking engine takes seconds already at 30 characters.
    assert.ok(ms < 2000, `took ${ms} ms`);
  });
});

describe('authorizer library', () => {
  const requestResource = { group: 'apps', resource: 'deployments', subresource: '', namespace: 'ns', name: 'web' };
  const decls: readonly { name: string; type: DeclType }[] = [{ name: 'authorizer', type: authorizerType }];
  const e = celEnvironment(decls);
  const asked: CelAuthorizationAttributes[] = [];
  const authorize = (a: CelAuthorizationAttributes) => {
    asked.push(a);
    return a.verb === 'get' || a.path === '/healthz'
      ? { decision: 'allow' as const, reason: 'granted' }
      : { decision: 'deny' as const, reason: `no ${a.verb}` };
  };
  const act = activation(e, { authorizer: new AuthorizerValue(authorize, requestResource) });
  const rows: readonly Row[] = [
    ["authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('get').allowed()", true],
    ["authorizer.group('apps').resource('deployments').subresource('scale').check('update').allowed()", false],
    ["authorizer.group('').resource('pods').check('delete').reason()", 'no delete'],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.requestResource.check('get').allowed()", true],
  ];
  for (const [expression, expected] of rows) {
    it(expression, () => {
      const c = compile(expression, e);
      assert.ok(c.ok, c.ok ? '' : c.error.message);
      const r = evaluate(c.value, act);
      assert.ok(r.ok, r.ok ? '' : r.error.message);
      assert.deepEqual(r.value, expected);
    });
  }
  it('passes the attributes of the check', () => {
    asked.length = 0;
    const c = compile("authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('patch')", e);
    assert.ok(c.ok);
    assert.ok(evaluate(c.value, act).ok);
    assert.deepEqual(asked, [{
      verb: 'patch', resourceRequest: true, path: '', apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'scale',
      namespace: 'ns', name: 'web',
    }]);
  });
  it('charges an authorization check 350000', () => {
    const c = compile("authorizer.path('/healthz').check('get').allowed()", e);
    assert.ok(c.ok);
    const r = evaluate(c.value, act);
    assert.ok(r.cost >= 350_000 && r.cost < 350_010, String(r.cost));
  });
  it('waits for an authorizer that answers later', async () => {
    const later = new AuthorizerValue(async (a) => ({ decision: a.verb === 'list' ? 'allow' : 'deny', reason: 'async' }), requestResource);
    const a2 = activation(e, { authorizer: later });
    const c = compile("authorizer.requestResource.check('list').allowed() && !authorizer.path('/x').check('get').allowed()", e);
    assert.ok(c.ok);
    const r = await evaluateAsync(c.value, a2);
    assert.deepEqual(r.ok && r.value, true);
    const sync = evaluate(c.value, a2);
    assert.equal(sync.ok, false);
  });
});
