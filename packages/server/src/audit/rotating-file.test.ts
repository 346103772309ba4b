import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRotatingFile } from './rotating-file.js';

test('rotating file: rotates by size into time-named backups, keeps maxBackups, drops backups past maxAge', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'audit.log');
  // A backup from long ago: past maxAge, it goes at the first rotation.
  writeFileSync(join(dir, 'audit-2001-01-01T00-00-00.000.log'), 'old\n');
  writeFileSync(join(dir, 'unrelated.txt'), 'kept\n');
  let clock = Date.parse('2024-05-01T10:00:00.000Z');
  const file = await openRotatingFile(path, { maxSizeBytes: 100, maxBackups: 2, maxAgeDays: 30 }, () => new Date(clock));
  const line = `${'x'.repeat(39)}\n`;
  for (let i = 0; i < 12; i++) {
    await file.write(line);
    clock += 1000;
  }
  await file.close();
  const files = readdirSync(dir).sort();
  assert.deepEqual(files.filter((f) => f !== 'audit.log' && f !== 'unrelated.txt'), ['audit-2024-05-01T10-00-08.000.log', 'audit-2024-05-01T10-00-10.000.log']);
  assert.ok(files.includes('unrelated.txt'));
  // Two 40-byte lines fit in 100 bytes, a third does not: every file holds whole lines, none over the limit.
  for (const f of files.filter((n) => n.startsWith('audit'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.ok(text.length <= 100, `${f} has ${text.length} bytes`);
    assert.match(text, /^(x{39}\n)+$/);
  }
  assert.equal(readFileSync(path, 'utf8'), line.repeat(2));
});

test('rotating file: appends to an existing file and counts its size', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'audit.json');
  writeFileSync(path, 'a'.repeat(90) + '\n');
  const file = await openRotatingFile(path, { maxSizeBytes: 100, maxBackups: 0, maxAgeDays: 0 }, () => new Date('2024-05-01T10:00:00.000Z'));
  await file.write('b'.repeat(20) + '\n');
  await file.close();
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2024-05-01T10-00-00.000.json', 'audit.json']);
  assert.equal(readFileSync(path, 'utf8'), 'b'.repeat(20) + '\n');
});
