/**
 * `svcctl edit TYPE NAME`: the object as YAML in `$SVC_EDITOR`, `$KUBE_EDITOR` or `$EDITOR` (vi otherwise); saved
 * unchanged it is left alone (`Edit cancelled, no changes made.`), changed it is written back with the
 * resourceVersion it was read at, so a concurrent change makes a Conflict rather than a lost update.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@svc-apiserver/api';
import { parse, stringify } from 'yaml';
import { error, namedTargets, objectName, refOf, reportStatus, type Session } from '../session.js';

/** Runs `edit`. */
export async function cmdEdit(s: Session, args: string[]): Promise<number> {
  const t = await namedTargets(s, args);
  if (!t.ok) return t.error;
  const editor = s.io.env.SVC_EDITOR ?? s.io.env.KUBE_EDITOR ?? s.io.env.EDITOR ?? 'vi';
  let code = 0;
  for (const target of t.value.targets) {
    const ref = refOf(target.r, s.namespace);
    const got = await s.client.get(ref, target.name);
    if (!got.ok) {
      code = reportStatus(s.io, got.error);
      continue;
    }
    const before = stringify(got.value, { lineWidth: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'svcctl-edit-'));
    try {
      const file = join(dir, `${target.r.resource}-${target.name}.yaml`);
      writeFileSync(file, before);
      const ran = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env: s.io.env });
      if (ran.status !== 0) {
        code = error(s.io, `there was a problem with the editor "${editor}"`);
        continue;
      }
      const after = readFileSync(file, 'utf8');
      if (after === before) {
        s.io.stdout('Edit cancelled, no changes made.\n');
        continue;
      }
      let edited: KubeObject;
      try {
        edited = parse(after) as KubeObject;
      } catch (e) {
        code = error(s.io, `the edited file is not valid YAML: ${(e as Error).message}`);
        continue;
      }
      const updated = await s.client.update(ref, edited);
      if (!updated.ok) code = reportStatus(s.io, updated.error);
      else s.io.stdout(`${objectName(target.r, target.name)} edited\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return code;
}
