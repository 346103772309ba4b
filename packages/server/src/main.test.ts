import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, isAbsolute } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import { serverCommand } from '@svc-apiserver/testing/launch-server';
import { repoRoot } from '@svc-apiserver/testing/node-child';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

test('an unknown flag exits 2', async () => {
  const child = spawn(process.execPath, serverCommand(['--no-such-flag']).args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 2);
  assert.match(err, /unknown flag: --no-such-flag/);
});

test('prints the three start lines, serves, and exits 0 on SIGTERM after the shutdown delay', async (t) => {
  const dir = tempDir(t, 'main-');
  const child = spawn(process.execPath, serverCommand([`--data-dir=${dir}`, '--secure-port', '0', '--storage=memory', '--shutdown-delay-duration=200ms']).args,
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    const lines = await new Promise<string[]>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const l = out.split('\n').filter(Boolean);
        if (l.length >= 3) resolve(l);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before ready: ${out}`)));
    });
    const serving = /^svc-apiserver: serving on (https:\/\/127\.0\.0\.1:(\d+))$/.exec(lines[0]!);
    assert.ok(serving, lines[0]);
    const kc = /^svc-apiserver: admin kubeconfig written to (.+)$/.exec(lines[1]!);
    assert.ok(kc && isAbsolute(kc[1]!) && kc[1] === join(dir, 'admin.kubeconfig'), lines[1]);
    assert.match(lines[2]!, /^svc-apiserver: ready in \d+ms$/);
    const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
    const status = await new Promise<number>((resolve, reject) => {
      httpsRequest(`${serving[1]}/livez`, { ca, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end();
    });
    assert.equal(status, 200);
    const t = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.ok(Date.now() - t >= 200, 'the shutdown delay is honoured');
  } finally {
    child.kill('SIGKILL');
  }
});
