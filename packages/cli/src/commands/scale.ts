/**
 * `svcctl scale TYPE NAME --replicas=N [--current-replicas=M]`: a merge patch of the scale subresource (with the
 * resourceVersion precondition kubectl sends when `--current-replicas` is given), printing `scaled`.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { error, namedTargets, objectName, refOf, reportStatus, type Session } from '../session.js';

type Scale = KubeObject & { spec?: { replicas?: number }; status?: { replicas?: number } };

/** Runs `scale`. */
export async function cmdScale(s: Session, args: string[]): Promise<number> {
  const replicas = Number(s.flags.replicas);
  if (s.flags.replicas === undefined || !Number.isInteger(replicas) || replicas < 0) return error(s.io, 'The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const t = await namedTargets(s, args);
  if (!t.ok) return t.error;
  let code = 0;
  for (const target of t.value.targets) {
    if (!target.r.subresources.includes('scale')) {
      code = error(s.io, `no objects passed to scale ${target.r.resource} "${target.name}" has no scale subresource`);
      continue;
    }
    const ref = refOf(target.r, s.namespace);
    const current = await s.client.get<Scale>(ref, target.name, { subresource: 'scale' });
    if (!current.ok) {
      code = reportStatus(s.io, current.error);
      continue;
    }
    if (s.flags['current-replicas'] !== undefined && current.value.spec?.replicas !== Number(s.flags['current-replicas'])) {
      code = error(s.io, `Expected replicas to be ${s.flags['current-replicas']}, was ${current.value.spec?.replicas ?? 0}`);
      continue;
    }
    const patch = { spec: { replicas }, ...(s.flags['current-replicas'] === undefined ? {} : { metadata: { resourceVersion: current.value.metadata?.resourceVersion } }) };
    const patched = await s.client.patch(ref, target.name, 'merge', patch, { subresource: 'scale' });
    if (!patched.ok) code = reportStatus(s.io, patched.error);
    else s.io.stdout(`${objectName(target.r, target.name)} scaled\n`);
  }
  return code;
}
