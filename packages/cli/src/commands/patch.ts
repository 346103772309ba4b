/**
 * `svcctl patch TYPE NAME -p PATCH --type strategic|merge|json` (strategic by default, as kubectl), the patch
 * given as JSON or YAML; prints `patched`, or `patched (no change)` when the object's resourceVersion stayed.
 */
import { parse } from 'yaml';
import type { PatchType } from '@svc-apiserver/client';
import { manifestTargets } from '../manifests.js';
import { error, namedTargets, objectName, refOf, reportStatus, type NamedTarget, type Session } from '../session.js';

/** Runs `patch`. */
export async function cmdPatch(s: Session, args: string[]): Promise<number> {
  const type = (s.flags.type ?? 'strategic') as PatchType;
  if (!['json', 'merge', 'strategic'].includes(type)) return error(s.io, `--type must be one of [json merge strategic], not "${type}"`);
  if (s.flags.patch === undefined) return error(s.io, 'must specify -p to patch');
  let body: unknown;
  try {
    body = parse(s.flags.patch) as unknown;
  } catch (e) {
    return error(s.io, `unable to parse "${s.flags.patch}": ${(e as Error).message}`);
  }
  let targets: NamedTarget[];
  if ((s.flags.filename ?? []).length > 0) {
    const t = await manifestTargets(s);
    if (!t.ok) return t.error;
    targets = t.value.map((m) => ({ r: m.r, name: m.obj.metadata?.name ?? '', ns: m.obj.metadata?.namespace }));
  } else {
    const t = await namedTargets(s, args);
    if (!t.ok) return t.error;
    targets = t.value.targets;
  }
  let code = 0;
  for (const t of targets) {
    const ref = refOf(t.r, t.ns ?? s.namespace);
    const before = await s.client.get(ref, t.name);
    const patched = await s.client.patch(ref, t.name, type, JSON.stringify(body), { ...(s.flags['field-manager'] === undefined ? {} : { fieldManager: s.flags['field-manager'] }), ...(s.flags['dry-run'] === 'server' ? { dryRun: true } : {}) });
    if (!patched.ok) {
      code = reportStatus(s.io, patched.error);
      continue;
    }
    const same = before.ok && before.value.metadata?.resourceVersion === patched.value.metadata?.resourceVersion;
    s.io.stdout(`${objectName(t.r, t.name)} patched${same ? ' (no change)' : ''}\n`);
  }
  return code;
}
