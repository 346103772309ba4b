/**
 * `create -f`, `replace -f` and `apply -f`, as kubectl does them: create POSTs, replace PUTs, apply is
 * client-side by default (the last-applied-configuration annotation, a three-way merge patch of what was applied
 * before, what is applied now and what the server has) and server-side with `--server-side` (an apply patch under
 * `--field-manager`, `--force-conflicts` taking fields over).
 */
import type { KubeObject, Result } from '@svc-apiserver/api';
import { manifestTargets, type ManifestTarget } from '../manifests.js';
import { error, objectName, reportStatus, serverNames, type Session } from '../session.js';
import { threeWayMergePatch } from '../merge-patch.js';

function dryRunOf(s: Session): Result<boolean, number> {
  const d = s.flags['dry-run'];
  if (d === undefined || d === 'none') return { ok: true, value: false };
  if (d === 'server') return { ok: true, value: true };
  return { ok: false, error: error(s.io, `--dry-run=${d} is not supported here; use --dry-run=server`) };
}

/** Runs `create -f` or `replace -f`. */
export async function cmdCreateOrReplace(s: Session, verb: 'create' | 'replace'): Promise<number> {
  const targets = await manifestTargets(s);
  if (!targets.ok) return targets.error;
  const dry = dryRunOf(s);
  if (!dry.ok) return dry.error;
  const opts = { ...(s.flags['field-manager'] === undefined ? {} : { fieldManager: s.flags['field-manager'] }), ...(dry.value ? { dryRun: true } : {}) };
  let code = 0;
  for (const { r, ref, obj } of targets.value) {
    const result = verb === 'create' ? await s.client.create(ref, obj, opts) : await s.client.update(ref, obj, opts);
    if (!result.ok) {
      code = reportStatus(s.io, result.error);
      continue;
    }
    const suffix = dry.value ? ' (server dry run)' : '';
    s.io.stdout(`${objectName(r, result.value.metadata?.name ?? '')} ${verb === 'create' ? 'created' : 'replaced'}${suffix}\n`);
  }
  return code;
}

function withoutLastApplied(obj: KubeObject, annotation: string): KubeObject {
  const annotations = { ...obj.metadata?.annotations };
  delete annotations[annotation];
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  else metadata.annotations = annotations;
  return { ...obj, metadata };
}

async function applyClientSide(s: Session, t: ManifestTarget, annotation: string, dryRun: boolean): Promise<Result<string>> {
  const name = t.obj.metadata?.name ?? '';
  const applied = JSON.stringify(withoutLastApplied(t.obj, annotation));
  const desired: KubeObject = { ...t.obj, metadata: { ...t.obj.metadata, annotations: { ...t.obj.metadata?.annotations, [annotation]: applied + '\n' } } };
  const opts = { fieldManager: s.flags['field-manager'] ?? 'svcctl-client-side-apply', ...(dryRun ? { dryRun: true } : {}) };
  const current = await s.client.get(t.ref, name);
  if (!current.ok) {
    if (current.error.code !== 404) return current;
    const created = await s.client.create(t.ref, desired, opts);
    return created.ok ? { ok: true, value: 'created' } : created;
  }
  const lastText = current.value.metadata?.annotations?.[annotation];
  let last: unknown = {};
  if (lastText !== undefined) {
    try {
      last = JSON.parse(lastText) as unknown;
    } catch {
      last = {};
    }
  }
  const patch = threeWayMergePatch(last, desired, current.value);
  if (Object.keys(patch).length === 0) return { ok: true, value: 'unchanged' };
  const patched = await s.client.patch(t.ref, name, 'merge', patch, opts);
  return patched.ok ? { ok: true, value: 'configured' } : patched;
}

/** Runs `apply -f`. */
export async function cmdApply(s: Session): Promise<number> {
  const targets = await manifestTargets(s);
  if (!targets.ok) return targets.error;
  const dry = dryRunOf(s);
  if (!dry.ok) return dry.error;
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const annotation = names.value.domain('last-applied-configuration', 'kubectl');
  const suffix = dry.value ? ' (server dry run)' : '';
  let code = 0;
  for (const t of targets.value) {
    const name = t.obj.metadata?.name ?? '';
    if (s.flags['server-side']) {
      const force = s.flags['force-conflicts'] === true;
      const result = await s.client.patch(t.ref, name, 'apply', t.obj, { fieldManager: s.flags['field-manager'] ?? 'svcctl', ...(force ? { force } : {}), ...(dry.value ? { dryRun: true } : {}) });
      if (!result.ok) code = reportStatus(s.io, result.error);
      else s.io.stdout(`${objectName(t.r, name)} serverside-applied${suffix}\n`);
      continue;
    }
    const result = await applyClientSide(s, t, annotation, dry.value);
    if (!result.ok) code = reportStatus(s.io, result.error);
    else s.io.stdout(`${objectName(t.r, name)} ${result.value}${suffix}\n`);
  }
  return code;
}
