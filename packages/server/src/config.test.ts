import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultServerOptions, parseDuration, parseFlags } from './config.js';

function options(argv: string[]) {
  const r = parseFlags(argv);
  assert.equal(r.kind, 'options', JSON.stringify(r));
  return (r as Extract<typeof r, { kind: 'options' }>).options;
}

test('defaults', () => {
  assert.deepEqual(options([]), defaultServerOptions);
  assert.equal(defaultServerOptions.maxRequestBodyBytes, 3145728);
  assert.equal(defaultServerOptions.securePort, 6443);
});

test('both --flag=value and --flag value forms', () => {
  const o = options(['--data-dir=/d', '--secure-port', '0', '--bind-address', '0.0.0.0', '--flavour=k8s', '--storage', 'memory']);
  assert.equal(o.dataDir, '/d');
  assert.equal(o.securePort, 0);
  assert.equal(o.bindAddress, '0.0.0.0');
  assert.equal(o.flavour, 'k8s');
  assert.equal(o.storage, 'memory');
});

test('list flags repeat and take comma lists', () => {
  const o = options(['--tls-san=a.example', '--tls-san', '10.0.0.1,b.example', '--enable-admission-plugins=X,Y', '--disable-admission-plugins', 'Z']);
  assert.deepEqual(o.tlsSans, ['a.example', '10.0.0.1', 'b.example']);
  assert.deepEqual(o.enableAdmissionPlugins, ['X', 'Y']);
  assert.deepEqual(o.disableAdmissionPlugins, ['Z']);
  assert.deepEqual(defaultServerOptions.tlsSans, [], 'defaults are not mutated');
});

test('durations in Go form', () => {
  assert.equal(parseDuration('5s'), 5000);
  assert.equal(parseDuration('1m30s'), 90_000);
  assert.equal(parseDuration('1.5h'), 5_400_000);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('0'), 0);
  assert.equal(parseDuration('0s'), 0);
  assert.equal(parseDuration('5'), undefined);
  assert.equal(parseDuration('5x'), undefined);
  assert.equal(parseDuration('s'), undefined);
  assert.equal(options(['--livez-grace-period=10s', '--shutdown-delay-duration', '2s']).livezGracePeriodMs, 10_000);
  assert.equal(options(['--shutdown-delay-duration', '2s']).shutdownDelayMs, 2000);
});

test('errors: unknown flag, missing value, bad values', () => {
  assert.deepEqual(parseFlags(['--nope']), { kind: 'error', message: 'unknown flag: --nope' });
  assert.equal(parseFlags(['--data-dir']).kind, 'error');
  assert.equal(parseFlags(['--secure-port=abc']).kind, 'error');
  assert.equal(parseFlags(['--secure-port=70000']).kind, 'error');
  assert.equal(parseFlags(['--flavour=x']).kind, 'error');
  assert.equal(parseFlags(['--storage=etcd']).kind, 'error');
  assert.equal(parseFlags(['--livez-grace-period=10']).kind, 'error');
  assert.equal(parseFlags(['positional']).kind, 'error');
});

test('--help', () => {
  const r = parseFlags(['--help']);
  assert.equal(r.kind, 'help');
  assert.match((r as { text: string }).text, /--secure-port/);
  assert.match((r as { text: string }).text, /--shutdown-delay-duration/);
});
