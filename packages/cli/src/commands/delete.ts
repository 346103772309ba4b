/**
 * `svcctl delete`: by name, `TYPE/NAME`, `-f`, `-l` or `--all`, with kubectl's `--cascade=background|foreground|orphan`,
 * `--grace-period`, `--force` (grace period 0), `--ignore-not-found`, and `--wait` (the default: return once the
 * objects are gone, finalizers included).
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { DeleteOptions } from '@svc-apiserver/client';
import { parseDuration } from '../flags.js';
import { manifestTargets } from '../manifests.js';
import { error, namedTargets, quotedName, refOf, reportStatus, type NamedTarget, type Session } from '../session.js';

function deleteOptions(s: Session): DeleteOptions | string {
  const cascade = s.flags.cascade ?? 'background';
  const policy = { background: 'Background', foreground: 'Foreground', orphan: 'Orphan', true: 'Background', false: 'Orphan' }[cascade];
  if (policy === undefined) return `invalid cascade value (${cascade}). Must be "background", "foreground", or "orphan".`;
  let grace = s.flags['grace-period'] === undefined ? -1 : Number(s.flags['grace-period']);
  if (!Number.isInteger(grace)) return `invalid argument "${s.flags['grace-period'] ?? ''}" for "--grace-period" flag`;
  if (s.flags.force) grace = grace <= 0 ? 0 : grace;
  return { propagationPolicy: policy as DeleteOptions['propagationPolicy'] & string, ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}), ...(s.flags['dry-run'] === 'server' ? { dryRun: true } : {}) };
}

/** Runs `delete`. */
export async function cmdDelete(s: Session, args: string[]): Promise<number> {
  const options = deleteOptions(s);
  if (typeof options === 'string') return error(s.io, options);
  let targets: NamedTarget[] = [];
  if ((s.flags.filename ?? []).length > 0) {
    const t = await manifestTargets(s);
    if (!t.ok) return t.error;
    targets = t.value.map((m) => ({ r: m.r, name: m.obj.metadata?.name ?? '', ns: m.obj.metadata?.namespace }));
  } else {
    const t = await namedTargets(s, args, true);
    if (!t.ok) return t.error;
    targets = t.value.targets;
    if (targets.length === 0) {
      if (s.flags.selector === undefined && s.flags['field-selector'] === undefined && !s.flags.all) return error(s.io, 'resource(s) were provided, but no name was specified');
      for (const r of t.value.types) {
        const list = await s.client.list(refOf(r, s.flags['all-namespaces'] ? undefined : s.namespace), { ...(s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector }), ...(s.flags['field-selector'] === undefined ? {} : { fieldSelector: s.flags['field-selector'] }) });
        if (!list.ok) return reportStatus(s.io, list.error);
        targets.push(...list.value.items.map((o) => ({ r, name: o.metadata?.name ?? '', ns: o.metadata?.namespace })));
      }
      if (targets.length === 0) {
        s.io.stderr(t.value.types.some((r) => r.namespaced) ? `No resources found in ${s.namespace} namespace.\n` : 'No resources found\n');
        return 0;
      }
    }
  }
  if (s.flags.force && options.gracePeriodSeconds === 0) s.io.stderr('Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n');
  let code = 0;
  const deleted: Array<{ t: NamedTarget; uid?: string }> = [];
  for (const t of targets) {
    const ref = refOf(t.r, t.ns ?? s.namespace);
    const del = await s.client.delete(ref, t.name, options);
    if (!del.ok) {
      if (del.error.code === 404 && s.flags['ignore-not-found']) continue;
      code = reportStatus(s.io, del.error);
      continue;
    }
    s.io.stdout(`${quotedName(t.r, t.name)} deleted${options.dryRun ? ' (server dry run)' : ''}\n`);
    const uid = (del.value as KubeObject).metadata?.uid;
    deleted.push({ t, ...(uid === undefined ? {} : { uid }) });
  }
  if (s.flags.wait === false || options.dryRun) return code;
  const timeoutMs = s.flags.timeout === undefined ? 0 : parseDuration(s.flags.timeout) ?? 0;
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
  for (const { t, uid } of deleted) {
    const ref = refOf(t.r, t.ns ?? s.namespace);
    for (;;) {
      const got = await s.client.get(ref, t.name);
      if (!got.ok || (uid !== undefined && got.value.metadata?.uid !== uid)) break;
      if (Date.now() > deadline || s.io.signal?.aborted) return error(s.io, `timed out waiting for the condition on ${t.r.resource}/${t.name}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return code;
}
