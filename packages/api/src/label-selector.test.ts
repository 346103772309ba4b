import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesLabels, parseLabelSelector } from './label-selector.js';

const sel = (s: string) => {
  const p = parseLabelSelector(s);
  if (!p.ok) throw new Error(p.message);
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
  assert.ok(!p.ok && p.message.startsWith('unable to parse requirement: values[0][a]: Invalid value: "-bad-": a valid label must be'));
});
