import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelValueErrors, matchesLabels, parseLabelSelector, qualifiedNameErrors } from './label-selector.js';

const sel = (s: string) => {
  const p = parseLabelSelector(s);
  if (!p.ok) throw new Error(p.error);
  return p.value;
};

test('parses every operator of the label selector syntax', () => {
  assert.deepEqual(sel('a=1,b==2,c!=3,d in (x, y),e notin (z),f,!g').requirements.map((r) => [r.key, r.operator, r.values]), [
    ['a', 'equals', ['1']], ['b', 'equals', ['2']], ['c', 'notEquals', ['3']], ['d', 'in', ['x', 'y']],
    ['e', 'notIn', ['z']], ['f', 'exists', []], ['g', 'doesNotExist', []],
  ]);
  assert.deepEqual(sel('').requirements, []);
  assert.deepEqual(sel('example.com/app=web').requirements[0]?.key, 'example.com/app');
});

test('matches as kube does', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };
  assert.equal(matchesLabels(sel('app=web,tier in (front,back)'), labels), true);
  assert.equal(matchesLabels(sel('app!=web'), labels), false);
  assert.equal(matchesLabels(sel('missing!=x'), labels), true, '!= matches objects without the key');
  assert.equal(matchesLabels(sel('tier notin (front)'), labels), false);
  assert.equal(matchesLabels(sel('!app'), labels), false);
  assert.equal(matchesLabels(sel('app'), {}), false);
  assert.equal(matchesLabels(sel('n>4,n<6'), labels), true);
  assert.equal(matchesLabels(sel(''), undefined), true);
});

test('bad selectors are error values', () => {
  for (const bad of ['a in (', 'a in x', '=x', 'a=b,', 'bad key=x', 'a=-bad-', 'a>b', '!a=b']) {
    const p = parseLabelSelector(bad);
    assert.equal(p.ok, false, bad);
  }
  const p = parseLabelSelector('a=-bad-');
  assert.ok(!p.ok && p.error.startsWith('unable to parse requirement: values[0][a]: Invalid value: "-bad-": a valid label must be'));
});

const message = (s: string): string => {
  const p = parseLabelSelector(s);
  assert.equal(p.ok, false, s);
  return p.ok ? '' : p.error;
};
const reqs = (s: string) => sel(s).requirements.map((r) => [r.key, r.operator, r.values]);

test('whitespace anywhere between tokens, none inside them', () => {
  assert.deepEqual(reqs('  a = b ,\tc\nin ( x ,y ) , ! d  '), [['a', 'equals', ['b']], ['c', 'in', ['x', 'y']], ['d', 'doesNotExist', []]]);
  assert.deepEqual(sel(' \t ').requirements, []);
  assert.equal(message('a b'), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
});

test('!key: complete by itself; anything but , or the end after it is a selector error', () => {
  assert.deepEqual(reqs('!a,!b'), [['a', 'doesNotExist', []], ['b', 'doesNotExist', []]]);
  assert.equal(message('!a=b'), "found '=', expected: ',' or 'end of string'");
  assert.equal(message('!'), "unable to parse requirement: found '', expected: identifier");
  assert.equal(message('!=a'), "found '!=', expected: !, identifier, or 'end of string'");
  assert.equal(message('a,'), "found '', expected: identifier after ','");
  assert.equal(message('a,,b'), "found ',', expected: identifier after ','");
});

test('in and notin value sets: empty members are the empty value, values are a sorted set', () => {
  assert.deepEqual(reqs('a in ()'), [['a', 'in', ['']]]);
  assert.deepEqual(reqs('a notin (,)'), [['a', 'notIn', ['']]]);
  assert.deepEqual(reqs('a in (z,,y,z)'), [['a', 'in', ['', 'y', 'z']]]);
  assert.deepEqual(reqs('a in (x,)'), [['a', 'in', ['', 'x']]]);
  assert.equal(matchesLabels(sel('a in ()'), { a: '' }), true);
  assert.equal(matchesLabels(sel('a in ()'), { a: 'x' }), false);
  assert.equal(message('a in x'), "unable to parse requirement: found 'x' expected: '('");
  assert.equal(message('a in ('), "unable to parse requirement: found '', expected: ',', ')' or identifier");
  assert.equal(message('a in (x'), "unable to parse requirement: found '', expected: ',' or ')'");
  assert.equal(message('a in (x y)'), "unable to parse requirement: found 'y', expected: ',' or ')'");
  assert.equal(message('a in (=)'), "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  assert.equal(message('a in (,=)'), "unable to parse requirement: found '=', expected: ',', or identifier");
});

test('keys and values with dots, dashes, underscores and a DNS prefix; = with no value is the empty value', () => {
  assert.deepEqual(reqs('app.kubernetes.io/name=my_app.v1-2,x='), [['app.kubernetes.io/name', 'equals', ['my_app.v1-2']], ['x', 'equals', ['']]]);
  assert.equal(matchesLabels(sel('x='), { x: '' }), true);
  assert.equal(matchesLabels(sel('x=,y'), { y: '1' }), false);
  // Keys: kube's IsQualifiedName under a nil field path.
  assert.match(message('a/b/c=x'), /^unable to parse requirement: <nil>: Invalid value: "a\/b\/c": a qualified name must consist of/);
  assert.match(message('app.kubernetes_io/name=x'), /^unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io\/name": prefix part a lowercase RFC 1123 subdomain/);
  assert.equal(message('/x'), 'unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
  assert.match(message(`${'k'.repeat(64)}`), /<nil>: Invalid value: "k+": name part must be no more than 63 characters$/);
  // Values: IsValidLabelValue, under values[i][key].
  assert.match(message('a=x/y'), /^unable to parse requirement: values\[0\]\[a\]: Invalid value: "x\/y": a valid label must be an empty string or consist of/);
  assert.match(message('a in (ok,-bad)'), /^unable to parse requirement: values\[0\]\[a\]: Invalid value: "-bad"/);
});

test('qualified names and label values get every message kube gives, joined by "; " in a selector', () => {
  const pattern = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  // An empty name part is empty and unmatched by the pattern: IsQualifiedName answers both.
  assert.deepEqual(qualifiedNameErrors('').map((m) => m.slice(0, 40)), ['name part must be non-empty', `name part ${pattern}`.slice(0, 40)]);
  assert.equal(qualifiedNameErrors('example.com/').length, 2);
  // A long name part that matches the pattern is only too long; a long prefix likewise.
  assert.deepEqual(qualifiedNameErrors('k'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(qualifiedNameErrors(`${'p'.repeat(254)}/k`), ['prefix part must be no more than 253 characters']);
  // A bad prefix and a bad name: both parts' messages.
  assert.deepEqual(qualifiedNameErrors('Bad/-x').map((m) => m.slice(0, 20)), ['prefix part a lowerc', 'name part must consi']);
  assert.deepEqual(qualifiedNameErrors('example.com/Name_1'), []);
  assert.equal(labelValueErrors('-'.repeat(64)).length, 2);
  assert.deepEqual(labelValueErrors(''), []);
  assert.equal(message('-x=1'), `unable to parse requirement: <nil>: Invalid value: "-x": name part ${pattern} (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  assert.match(message(`${'-'.repeat(64)}=1`), /: name part must be no more than 63 characters; name part must consist of/);
});

test('gt and lt: integer values (int64), both sides parsed as integers', () => {
  assert.deepEqual(reqs('n>5,m<10'), [['n', 'gt', ['5']], ['m', 'lt', ['10']]]);
  assert.equal(message('n>x'), `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`);
  assert.equal(message('n>'), `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`);
  // Not an integer and not a label value either: both errors, aggregated as kube does.
  assert.match(message('n>-x'), /^unable to parse requirement: \[values\[0\]: Invalid value: "-x": for 'Gt', 'Lt' operators, the value must be an integer, values\[0\]\[n\]: Invalid value: "-x": a valid label/);
  assert.equal(matchesLabels(sel('n>9007199254740992'), { n: '9007199254740993' }), true);
  assert.equal(matchesLabels(sel('n>1'), { n: 'abc' }), false);
  assert.equal(matchesLabels(sel('n<1'), {}), false);
});

test('matching takes whatever storage holds: null or non-map labels are no labels, non-string values are absent', () => {
  const sel = (s: string) => {
    const p = parseLabelSelector(s);
    assert.ok(p.ok);
    return p.value;
  };
  for (const labels of [null, undefined, ['a'], 'a=b', 5] as unknown[]) {
    const l = labels as Record<string, string> | null;
    assert.equal(matchesLabels(sel('a'), l), false);
    assert.equal(matchesLabels(sel('!a'), l), true);
    assert.equal(matchesLabels(sel('a!=b'), l), true);
    assert.equal(matchesLabels(sel('a in (b)'), l), false);
  }
  const odd = { a: null, n: 5, g: '7' } as unknown as Record<string, string>;
  assert.equal(matchesLabels(sel('a'), odd), false);
  assert.equal(matchesLabels(sel('n>1'), odd), false);
  assert.equal(matchesLabels(sel('g>1'), odd), true);
});
