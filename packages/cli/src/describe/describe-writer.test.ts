import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDescribeWriter, writeAnnotations, writeEvents, writeLabels } from './describe-writer.js';

test('labels and annotations blocks, a nested writer indenting WriteLine as kubectl\'s does', () => {
  const w = createDescribeWriter();
  writeLabels(w, 'Labels', { b: '2', a: '1' });
  writeAnnotations(w, 'Annotations', { 'kubectl.svc.io/last-applied-configuration': '{}', long: 'v'.repeat(150), multi: 'one\ntwo\n' }, 'kubectl.svc.io/last-applied-configuration');
  writeLabels(w.nested(2), 'Labels', {});
  writeLabels(w, 'Labels', {}, '  ');
  assert.equal(w.text(), [
    'Labels:       a=1', '              b=2',
    'Annotations:  long:', `                ${'v'.repeat(138)}...`, '              multi:', '                one', '                two',
    // kubectl's nested writer indents the `<none>` it writes as a line of its own, after the tab
    '    Labels:       <none>',
    '  Labels:     <none>', '',
  ].join('\n'));
});

test('Events by last timestamp, an unset one first, with repeats and series', () => {
  const w = createDescribeWriter();
  const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
  const day = 86_400_000;
  writeEvents(w, [
    { type: 'Warning', reason: 'BackOff', message: ' again ', count: 7, firstTimestamp: at(10 * day), lastTimestamp: at(3 * day), source: { component: 'kubelet' } },
    { type: 'Normal', reason: 'Registered', message: 'x', eventTime: at(10 * day), series: { count: 3, lastObservedTime: at(4 * day) }, reportingComponent: 'node-controller' },
  ] as never);
  assert.equal(w.text(), 'Events:\n  Type     Reason      Age               From             Message\n  ----     ------      ----              ----             -------\n'
    + '  Normal   Registered  4d (x3 over 10d)  node-controller  x\n  Warning  BackOff     3d (x7 over 10d)  kubelet          again\n');
});
