import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultServerOptions, helpText, parseDuration, parseFlags, usesEtcd } from './config.js';

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

test('--max-requests-inflight and --max-mutating-requests-inflight: kube defaults 400 and 200, 0 allowed, negatives refused', () => {
  assert.equal(defaultServerOptions.maxRequestsInFlight, 400);
  assert.equal(defaultServerOptions.maxMutatingRequestsInFlight, 200);
  const o = options(['--max-requests-inflight=0', '--max-mutating-requests-inflight', '15']);
  assert.equal(o.maxRequestsInFlight, 0);
  assert.equal(o.maxMutatingRequestsInFlight, 15);
  assert.equal(parseFlags(['--max-requests-inflight=-1']).kind, 'error');
  assert.equal(parseFlags(['--max-mutating-requests-inflight=many']).kind, 'error');
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

test('etcd flags: servers list, prefix, TLS files, compaction interval; etcd is chosen by servers or backend', () => {
  assert.equal(usesEtcd(options([])), false, 'the embedded store by default');
  assert.equal(defaultServerOptions.etcdPrefix, '/registry');
  assert.equal(defaultServerOptions.etcdCompactionIntervalMs, 300_000);
  const o = options([
    '--etcd-servers=https://127.0.0.1:2379, https://127.0.0.2:2379', '--etcd-servers', 'https://127.0.0.3:2379',
    '--etcd-prefix=/svc', '--etcd-cafile=/pki/etcd-ca.crt', '--etcd-certfile', '/pki/client.crt', '--etcd-keyfile=/pki/client.key',
    '--etcd-compaction-interval=90s',
  ]);
  assert.deepEqual(o.etcdServers, ['https://127.0.0.1:2379', 'https://127.0.0.2:2379', 'https://127.0.0.3:2379']);
  assert.equal(o.etcdPrefix, '/svc');
  assert.deepEqual([o.etcdCafile, o.etcdCertfile, o.etcdKeyfile], ['/pki/etcd-ca.crt', '/pki/client.crt', '/pki/client.key']);
  assert.equal(o.etcdCompactionIntervalMs, 90_000);
  assert.equal(o.storageBackend, '', '--etcd-servers alone implies etcd');
  assert.equal(usesEtcd(o), true);
  const explicit = options(['--storage-backend=etcd3', '--etcd-servers=http://127.0.0.1:2379']);
  assert.equal(explicit.storageBackend, 'etcd3');
  assert.equal(usesEtcd(explicit), true);
  assert.equal(options(['--etcd-compaction-interval=0']).etcdCompactionIntervalMs, 0, '0 disables compaction');
});

test('etcd flags: --storage-backend=etcd3 needs servers; unknown backends are errors', () => {
  const none = parseFlags(['--storage-backend=etcd3']);
  assert.deepEqual(none, { kind: 'error', message: '--etcd-servers must be specified with --storage-backend=etcd3' });
  assert.equal(parseFlags(['--storage-backend=etcd3', '--etcd-servers=']).kind, 'error', 'an empty list is no servers');
  assert.equal(parseFlags(['--storage-backend=etcd2', '--etcd-servers=http://127.0.0.1:2379']).kind, 'error');
  assert.equal(parseFlags(['--etcd-compaction-interval=often']).kind, 'error');
});

test('leader election: defaults, durations, and lease > renew deadline > retry period > 0', () => {
  const d = options([]);
  assert.equal(d.leaderElect, true);
  assert.deepEqual([d.leaderElectLeaseDurationMs, d.leaderElectRenewDeadlineMs, d.leaderElectRetryPeriodMs], [15_000, 10_000, 2_000]);
  assert.equal(options(['--leader-elect=false']).leaderElect, false);
  const o = options(['--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms']);
  assert.deepEqual([o.leaderElectLeaseDurationMs, o.leaderElectRenewDeadlineMs, o.leaderElectRetryPeriodMs], [3_000, 2_000, 500]);
  const ordering = 'leader election durations must satisfy lease duration > renew deadline > retry period > 0';
  for (const argv of [
    ['--leader-elect-lease-duration=10s'], // equal to the default renew deadline
    ['--leader-elect-renew-deadline=20s'], // longer than the default lease
    ['--leader-elect-retry-period=10s'], // equal to the default renew deadline
    ['--leader-elect-retry-period=0s'],
  ]) {
    assert.deepEqual(parseFlags(argv), { kind: 'error', message: ordering }, argv.join(' '));
  }
});

test('--controllers: default *, a list replaces it, -name entries pass through to the start', () => {
  assert.deepEqual(options([]).controllers, ['*']);
  assert.deepEqual(options(['--controllers=*,-garbagecollector', '--controllers', 'bootstrapsigner']).controllers, ['*', '-garbagecollector', 'bootstrapsigner']);
  assert.deepEqual(options(['--controllers', '-namespace']).controllers, ['-namespace']);
  assert.deepEqual(defaultServerOptions.controllers, ['*'], 'defaults are not mutated');
});

test('identity flags: signing CA files, per-signer files, signing duration, legacy token key, JWKS URI', () => {
  const parsed = parseFlags([
    '--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file', '/ca.key', '--cluster-signing-duration=2h',
    '--cluster-signing-kubelet-serving-cert-file=/s.crt', '--cluster-signing-kubelet-serving-key-file=/s.key',
    '--service-account-private-key-file=/sa.key', '--service-account-jwks-uri=https://keys.example/jwks',
  ]);
  assert.equal(parsed.kind, 'options');
  if (parsed.kind !== 'options') return;
  const o = parsed.options;
  assert.deepEqual([o.clusterSigningCertFile, o.clusterSigningKeyFile, o.clusterSigningDurationMs], ['/ca.crt', '/ca.key', 7_200_000]);
  assert.deepEqual([o.clusterSigningKubeletServingCertFile, o.clusterSigningKubeletServingKeyFile], ['/s.crt', '/s.key']);
  assert.equal(o.serviceAccountPrivateKeyFile, '/sa.key');
  assert.equal(o.serviceAccountJwksUri, 'https://keys.example/jwks');
  assert.equal(defaultServerOptions.clusterSigningDurationMs, 365 * 24 * 3_600_000);
  assert.match(helpText(), /--cluster-signing-duration value\s+The longest lifetime .* \(default 8760h0m0s\)/);
});

test('--feature-gates: repeated flags add up, kube\'s refusals, GA gates warn', () => {
  const r = parseFlags(['--feature-gates=WatchList=true,AllBeta=false', '--feature-gates', 'APIListChunking=true,ServerSideApply=true']);
  assert.equal(r.kind, 'options');
  const { options: o, warnings } = r as Extract<typeof r, { kind: 'options' }>;
  assert.deepEqual([o.featureGates.WatchList, o.featureGates.APIPriorityAndFairness, o.featureGates.APIListChunking], [true, false, true]);
  assert.deepEqual(warnings, ['Setting GA feature gate ServerSideApply=true. It will be removed in a future release.']);
  assert.deepEqual(parseFlags(['--feature-gates=NoSuchGate=true']),
    { kind: 'error', message: 'invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate' });
  assert.deepEqual(parseFlags(['--feature-gates=OpenAPIV3=false']),
    { kind: 'error', message: 'invalid argument "OpenAPIV3=false" for "--feature-gates" flag: cannot set feature gate OpenAPIV3 to false, feature is locked to true' });
  assert.match(helpText(), /^ +ValidatingAdmissionPolicy=true\|false \(ALPHA - default=false\)$/m);
});

test('--show-hidden-metrics-for-version takes only the previous minor release; --disabled-metrics is a list', () => {
  assert.equal(options(['--show-hidden-metrics-for-version=1.26']).showHiddenMetricsForVersion, '1.26');
  assert.equal(options(['--show-hidden-metrics-for-version=']).showHiddenMetricsForVersion, '');
  for (const odd of ['1.25', '1.27', '1.26.0', 'v1.26', '1.26 ', '１.26', '1.2６', '1.26,1.25']) {
    assert.deepEqual(parseFlags([`--show-hidden-metrics-for-version=${odd}`]), {
      kind: 'error', message: "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed",
    }, odd);
  }
  assert.deepEqual(options(['--disabled-metrics=a_total,b_seconds', '--disabled-metrics', 'c']).disabledMetrics, ['a_total', 'b_seconds', 'c']);
  assert.deepEqual(options(['--disabled-metrics=,']).disabledMetrics, []);
});

test('logging flags: --logging-format text or json, -v and --v in every form', () => {
  const opts = options;
  assert.equal(opts([]).loggingFormat, 'text');
  assert.equal(opts([]).verbosity, 0);
  assert.equal(opts(['--logging-format=json']).loggingFormat, 'json');
  assert.equal(opts(['--logging-format', 'text']).loggingFormat, 'text');
  for (const form of [['-v=3'], ['--v=3'], ['-v', '3'], ['--v', '3']]) assert.equal(opts(form).verbosity, 3, form.join(' '));
  assert.deepEqual(parseFlags(['--logging-format=xml']), {
    kind: 'error', message: 'invalid argument "xml" for "--logging-format" flag: supported values: "json", "text"',
  });
  assert.equal(parseFlags(['-v=high']).kind, 'error');
  assert.match((parseFlags(['--help']) as { text: string }).text, /--logging-format value .*\(default text\)/);
});
