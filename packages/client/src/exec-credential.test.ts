import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { createExecAuthenticator, parseExecOutput, type ExecEnvironment } from './exec-credential.js';
import { parseExecConfig } from './exec-config.js';
import type { ResolvedExec } from './kubeconfig.js';
import { createClient } from './rest-client.js';
import { sendJson, startFakeServer } from './testing/fake-server.js';

/**
 * Writes an executable plugin: a node script that counts its runs in `runs`, records what it received in
 * `input-<n>.json` and prints what `body` (a function of the run number) returns.
 */
function writePlugin(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const here = ${JSON.stringify(dir)};
const countFile = path.join(here, 'runs');
const n = (fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) : 0) + 1;
fs.writeFileSync(countFile, String(n));
fs.writeFileSync(path.join(here, 'input-' + n + '.json'), JSON.stringify({ svc: process.env.SVC_EXEC_INFO ?? null, k8s: process.env.KUBERNETES_EXEC_INFO ?? null, extra: process.env.PLUGIN_EXTRA ?? null, argv: process.argv.slice(2), stdinTTY: process.stdin.isTTY === true }));
${body}
`);
  chmodSync(path, 0o755);
  return path;
}

const runs = (dir: string): number => Number(readFileSync(join(dir, 'runs'), 'utf8'));
const input = (dir: string, n: number): { svc: string | null; k8s: string | null; extra: string | null; argv: string[] } =>
  JSON.parse(readFileSync(join(dir, `input-${n}.json`), 'utf8'));

function execFor(dir: string, exec: Record<string, unknown>): ResolvedExec {
  const parsed = parseExecConfig(exec);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return { config: parsed.value, baseDir: dir, cluster: { server: 'https://h:1', certificateAuthorityData: 'Q0E=', config: { audience: 'a' } } };
}

const quiet: ExecEnvironment = { stdinIsTerminal: false, env: { PATH: process.env.PATH ?? '' }, now: Date.now };

test('a token plugin: relative command, args, env, ExecCredential input in SVC_EXEC_INFO, cached until it expires', async (t) => {
  const dir = tempDir(t, 'exec-token-');
  mkdirSync(join(dir, 'bin'));
  writePlugin(join(dir, 'bin'), 'plugin', `
const exp = new Date(Date.now() + (n === 1 ? 1500 : 3600e3)).toISOString();
console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1', status: { token: 'tok-' + n, expirationTimestamp: exp } }));`);
  const exec = execFor(dir, {
    command: './bin/plugin', args: ['--flag'], env: [{ name: 'PLUGIN_EXTRA', value: 'yes' }],
    apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never', provideClusterInfo: true,
  });
  let now = Date.now();
  const a = createExecAuthenticator(exec, { ...quiet, now: () => now });
  const [c1, c1b] = await Promise.all([a.credential(), a.credential()]);
  assert.ok(c1.ok && c1b.ok);
  assert.equal(c1.value.token, 'tok-1');
  assert.equal(c1b.value, c1.value);
  const binDir = join(dir, 'bin');
  assert.equal(runs(binDir), 1, 'concurrent callers share one run');
  const got = input(binDir, 1);
  assert.equal(got.k8s, null);
  assert.equal(got.extra, 'yes');
  assert.deepEqual(got.argv, ['--flag']);
  assert.deepEqual(JSON.parse(got.svc ?? ''), {
    kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1',
    spec: { interactive: false, cluster: { server: 'https://h:1', 'certificate-authority-data': 'Q0E=', config: { audience: 'a' } } },
  });
  assert.equal((await a.credential()).ok && runs(binDir), 1, 'cached while fresh');
  now += 2000;
  const c2 = await a.credential();
  assert.ok(c2.ok);
  assert.equal(c2.value.token, 'tok-2', 'expired: the plugin runs again');
  assert.equal(runs(binDir), 2);
});

test('the k8s flavour: KUBERNETES_EXEC_INFO, v1beta1 without cluster info', async (t) => {
  const dir = tempDir(t, 'exec-k8s-');
  const plugin = writePlugin(dir, 'plugin', `
console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1beta1', status: { token: 'k' } }));`);
  const a = createExecAuthenticator(execFor(dir, { command: plugin, apiVersion: 'client.authentication.k8s.io/v1beta1' }), quiet);
  const c = await a.credential();
  assert.ok(c.ok);
  assert.equal(c.value.token, 'k');
  assert.equal(c.value.expiresAt, undefined);
  const got = input(dir, 1);
  assert.equal(got.svc, null);
  assert.deepEqual(JSON.parse(got.k8s ?? ''), { kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1beta1', spec: { interactive: false } });
});

test('interactive modes: Never and IfAvailable without a terminal run quietly, Always without one fails, with one is interactive', async (t) => {
  const dir = tempDir(t, 'exec-interactive-');
  const plugin = writePlugin(dir, 'plugin', `
console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1', status: { token: 't' } }));`);
  const make = (mode: string, terminal: boolean) =>
    createExecAuthenticator(execFor(dir, { command: plugin, apiVersion: 'client.authentication.svc.io/v1', interactiveMode: mode }), { ...quiet, stdinIsTerminal: terminal });
  assert.ok((await make('Never', true).credential()).ok);
  assert.equal(JSON.parse(input(dir, 1).svc ?? '').spec.interactive, false, 'Never is never interactive');
  assert.ok((await make('IfAvailable', false).credential()).ok);
  assert.equal(JSON.parse(input(dir, 2).svc ?? '').spec.interactive, false);
  const always = await make('Always', false).credential();
  assert.equal(always.ok, false);
  assert.equal(always.ok ? '' : always.error.message, 'exec plugin cannot support interactive mode: standard input is not a terminal');
  assert.equal(runs(dir), 2, 'the plugin is not started');
  assert.ok((await make('IfAvailable', true).credential()).ok);
  assert.equal(JSON.parse(input(dir, 3).svc ?? '').spec.interactive, true);
  assert.ok((await make('Always', true).credential()).ok);
  assert.equal(JSON.parse(input(dir, 4).svc ?? '').spec.interactive, true);
});

test('a missing command fails with the install hint; a failing or malformed plugin fails clearly', async (t) => {
  const dir = tempDir(t, 'exec-missing-');
  const missing = createExecAuthenticator(execFor(dir, {
    command: 'svc-no-such-plugin', apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never',
    installHint: 'Install it with: npm install -g svc-login',
  }), quiet);
  const r = await missing.credential();
  assert.equal(r.ok, false);
  const message = r.ok ? '' : r.error.message;
  assert.match(message ?? '', /^exec: executable svc-no-such-plugin not found/);
  assert.match(message ?? '', /Install it with: npm install -g svc-login$/);
  assert.equal(r.ok ? 0 : r.error.reason, 'Unauthorized');

  const exits = writePlugin(dir, 'exits', 'process.exit(3);');
  const e = await createExecAuthenticator(execFor(dir, { command: exits, apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never' }), quiet).credential();
  assert.equal(e.ok ? '' : e.error.message, `exec: executable ${exits} failed with exit code 3`);

  const wrong = writePlugin(dir, 'wrong', `console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1beta1', status: { token: 'x' } }));`);
  const w = await createExecAuthenticator(execFor(dir, { command: wrong, apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never' }), quiet).credential();
  assert.match((w.ok ? '' : w.error.message) ?? '', /configured to use API version client\.authentication\.svc\.io\/v1, plugin returned version client\.authentication\.svc\.io\/v1beta1/);

  const bad = createExecAuthenticator(execFor(dir, { command: wrong, apiVersion: 'client.authentication.example.com/v1', interactiveMode: 'Never' }), quiet);
  assert.match(JSON.stringify(await bad.credential()), /invalid apiVersion/);
});

test('plugin output checks', () => {
  const v = 'client.authentication.svc.io/v1';
  const out = (status: unknown): string => JSON.stringify({ kind: 'ExecCredential', apiVersion: v, status });
  assert.deepEqual(parseExecOutput(out({ clientCertificateData: 'C', clientKeyData: 'K', expirationTimestamp: '2030-01-01T00:00:00Z' }), v),
    { ok: true, value: { clientCertificateData: 'C', clientKeyData: 'K', expiresAt: new Date('2030-01-01T00:00:00Z') } });
  assert.deepEqual(parseExecOutput(out({ clientCertificateData: 'C' }), v), { ok: false, error: 'plugin returned only certificate or key, not both' });
  assert.deepEqual(parseExecOutput(out({}), v), { ok: false, error: 'plugin did not return a token or cert/key pair' });
  assert.deepEqual(parseExecOutput(JSON.stringify({ kind: 'ExecCredential', apiVersion: v }), v), { ok: false, error: 'plugin did not return a status field' });
  assert.match(JSON.stringify(parseExecOutput(out({ token: 't', expirationTimestamp: 'soon' }), v)), /invalid expirationTimestamp/);
  assert.match(JSON.stringify(parseExecOutput('not json', v)), /decoding stdout/);
});

test('a 401 drops the plugin credential and the request is sent once more with a fresh one', async (t) => {
  const dir = tempDir(t, 'exec-401-');
  writePlugin(dir, 'plugin', `
console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: 'client.authentication.svc.io/v1', status: { token: 'tok-' + n } }));`);
  let valid = 'tok-2';
  const fake = await startFakeServer((req, res) => {
    if (req.headers.authorization === `Bearer ${valid}`) sendJson(res, 200, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } });
    else sendJson(res, 401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
  t.after(() => fake.close());
  const exec = execFor(dir, { command: './plugin', apiVersion: 'client.authentication.svc.io/v1', interactiveMode: 'Never' });
  const client = createClient({ server: fake.url, namespace: 'default', exec }, { execAuthenticator: createExecAuthenticator(exec, quiet) });
  t.after(() => client.close());
  const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
  const first = await client.get(ref, 'a');
  assert.ok(first.ok, 'the 401 to tok-1 made the client run the plugin again');
  assert.deepEqual(fake.requests.map((r) => r.headers.authorization), ['Bearer tok-1', 'Bearer tok-2']);
  assert.ok((await client.get(ref, 'a')).ok);
  assert.equal(runs(dir), 2, 'cached while it works');
  valid = 'never';
  const denied = await client.get(ref, 'a');
  assert.equal(denied.ok ? 0 : denied.error.code, 401, 'one retry only');
  assert.equal(runs(dir), 3);
});
