import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, logFunction } from './logger.js';
import { parseLoggingFormat } from './logging-flags.js';

/** 2026-11-28 20:13:44.123456 local time, in epoch milliseconds with the microseconds as a fraction. */
const at = new Date(2026, 10, 28, 20, 13, 44, 123).getTime() + 0.456;

function capture(format: 'text' | 'json', verbosity = 0) {
  const lines: string[] = [];
  const logger = createLogger({ format, verbosity, write: (l) => lines.push(l), now: () => at, pid: 4242 });
  return { logger, lines };
}

test('text: klog header with severity, local time to the microsecond, the pid in seven columns and the caller', () => {
  const { logger, lines } = capture('text');
  logger.info('plain message');
  logger.warning('careful');
  logger.error('it failed', new Error('disk full'));
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^I1128 20:13:44\.123456    4242 logger\.test\.js:\d+\] plain message\n$/);
  assert.match(lines[1]!, /^W1128 20:13:44\.123456    4242 logger\.test\.js:\d+\] careful\n$/);
  assert.match(lines[2]!, /^E1128 20:13:44\.123456    4242 logger\.test\.js:\d+\] it failed: disk full\n$/);
});

test('text: structured lines quote the message and write key="value" pairs as klog does', () => {
  const { logger, lines } = capture('text');
  logger.infoS('HTTP', { verb: 'GET', URI: '/api?x="y"', resp: 200, ok: true, obj: { a: [1] }, none: null });
  logger.infoS('multi', { text: 'line one\nline two\n' });
  logger.errorS(new Error('boom'), 'sync failed', { key: 'ns/name' });
  const body = (l: string) => l.slice(l.indexOf('] ') + 2);
  assert.equal(body(lines[0]!), '"HTTP" verb="GET" URI="/api?x=\\"y\\"" resp=200 ok=true obj={"a":[1]} none=<nil>\n');
  assert.equal(body(lines[1]!), '"multi" text=<\n\tline one\n\tline two\n >\n');
  assert.equal(body(lines[2]!), '"sync failed" err="boom" key="ns/name"\n');
  assert.ok(lines[2]!.startsWith('E1128'));
});

test('json: ts in epoch milliseconds, caller, msg, v for info lines, err for errors, then the pairs', () => {
  const { logger, lines } = capture('json', 5);
  logger.infoS('HTTP', { verb: 'GET', resp: 200 }, 3);
  logger.info('plain');
  logger.errorS(new Error('boom'), 'sync failed', { key: 'k' });
  logger.warning('careful');
  const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(lines.every((l) => l.endsWith('}\n') && !l.slice(0, -1).includes('\n')));
  assert.deepEqual(Object.keys(parsed[0]!), ['ts', 'caller', 'msg', 'v', 'verb', 'resp']);
  assert.equal(parsed[0]!['ts'], at);
  assert.match(String(parsed[0]!['caller']), /^logging\/logger\.test\.js:\d+$/);
  assert.deepEqual({ ...parsed[0], ts: 0, caller: '' }, { ts: 0, caller: '', msg: 'HTTP', v: 3, verb: 'GET', resp: 200 });
  assert.equal(parsed[1]!['v'], 0);
  assert.deepEqual({ ...parsed[2], ts: 0, caller: '' }, { ts: 0, caller: '', msg: 'sync failed', err: 'boom', key: 'k' });
  assert.equal('v' in parsed[3]!, false);
});

test('verbosity: V(n) lines are written only up to -v; warnings and errors always', () => {
  const { logger, lines } = capture('text', 2);
  assert.equal(logger.enabled(2), true);
  assert.equal(logger.enabled(3), false);
  logger.info('shown', 2);
  logger.info('hidden', 3);
  logger.infoS('hidden too', {}, 4);
  logger.error('always');
  assert.deepEqual(lines.map((l) => l.slice(l.indexOf('] ') + 2)), ['shown\n', 'always\n']);
});

test('logFunction: a message is an info line, a message with an Error an error line carrying the stack', () => {
  const { logger, lines } = capture('json');
  const log = logFunction(logger);
  log('started');
  log('failed', new Error('nope'));
  log('failed again', 'a string');
  const [a, b, c] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(a!['msg'], 'started');
  assert.equal(b!['err'], 'nope');
  assert.match(String(b!['stack']), /^Error: nope\n\s+at /);
  assert.equal(c!['msg'], 'failed again: a string');
  // The caller is the code that called the callback, not the logging module.
  assert.match(String(a!['caller']), /^logging\/logger\.test\.js:/);
});

test('--logging-format takes text and json only', () => {
  assert.equal(parseLoggingFormat('text'), 'text');
  assert.equal(parseLoggingFormat('json'), 'json');
  assert.equal(parseLoggingFormat('xml'), undefined);
});
