/**
 * `certificate approve|deny NAME...`: sets the Approved or Denied condition through the CSR's approval subresource
 * (reason `KubectlApprove`/`KubectlDeny`, as kubectl's), leaving a CSR alone that already has it (`--force` adds it
 * anyway), and printing `approved`/`denied`.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { error, objectName, reportStatus, resources, serverNames, type Session } from '../session.js';

type Csr = KubeObject & { status?: { conditions?: Array<Record<string, unknown>> } };

/** Runs `certificate approve|deny`. */
export async function cmdCertificate(s: Session, args: string[]): Promise<number> {
  const [sub, ...csrNames] = args;
  if (sub !== 'approve' && sub !== 'deny') return error(s.io, `unknown command "${sub ?? ''}" for "svcctl certificate"`);
  if (csrNames.length === 0) return error(s.io, 'one or more CSRs must be specified as <name> or -f <filename>');
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const rs = await resources(s);
  if (!rs.ok) return reportStatus(s.io, rs.error);
  const group = names.value.group('certificates');
  const r = rs.value.find((x) => x.group === group && x.resource === 'certificatesigningrequests' && x.preferred);
  if (!r) return error(s.io, 'the server doesn\'t have a resource type "certificatesigningrequests"');
  const ref = { group, version: r.version, resource: r.resource };
  const type = sub === 'approve' ? 'Approved' : 'Denied';
  let code = 0;
  for (const name of csrNames.map((n) => n.replace(/^[^/]+\//, ''))) {
    const got = await s.client.get<Csr>(ref, name);
    if (!got.ok) {
      code = reportStatus(s.io, got.error);
      continue;
    }
    const conditions = got.value.status?.conditions ?? [];
    if (conditions.some((c) => c.type === type) && !s.flags.force) {
      s.io.stdout(`${objectName(r, name)} ${sub === 'approve' ? 'approved' : 'denied'}\n`);
      continue;
    }
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const condition = { type, status: 'True', reason: sub === 'approve' ? 'KubectlApprove' : 'KubectlDeny', message: `This CSR was ${sub === 'approve' ? 'approved' : 'denied'} by svcctl certificate ${sub}.`, lastUpdateTime: now, lastTransitionTime: now };
    const updated = await s.client.update(ref, { ...got.value, status: { ...got.value.status, conditions: [...conditions, condition] } }, { subresource: 'approval' });
    if (!updated.ok) code = reportStatus(s.io, updated.error);
    else s.io.stdout(`${objectName(r, name)} ${sub === 'approve' ? 'approved' : 'denied'}\n`);
  }
  return code;
}
