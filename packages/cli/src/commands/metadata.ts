/**
 * `label` and `annotate`: `KEY=VALUE` sets, `KEY-` removes, an existing different value needs `--overwrite`; on
 * named objects, `TYPE/NAME`, `-f`, or every object matching `-l` / `--all`, as kubectl does. The check and the
 * write are one step: the patch carries the resourceVersion it was checked against.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { manifestTargets } from '../manifests.js';
import { error, namedTargets, objectName, refOf, reportStatus, type NamedTarget, type Session } from '../session.js';

/** Runs `label` (`field` labels) or `annotate` (`field` annotations). */
export async function cmdMetadata(s: Session, args: string[], field: 'labels' | 'annotations'): Promise<number> {
  const changeArgs = args.filter((a) => a.includes('=') || (a.endsWith('-') && !a.includes('/')));
  const objectArgs = args.filter((a) => !changeArgs.includes(a));
  // kubectl's own words, which scripts match: `labeled`, and `annotate` (sic) for annotations
  const verb = field === 'labels' ? 'labeled' : 'annotate';
  if (changeArgs.length === 0) return error(s.io, `at least one ${field === 'labels' ? 'label' : 'annotation'} update is required`);
  const changes: Record<string, string | null> = {};
  for (const c of changeArgs) {
    if (!c.includes('=')) changes[c.slice(0, -1)] = null;
    else {
      const eq = c.indexOf('=');
      if (eq <= 0) return error(s.io, `invalid ${field === 'labels' ? 'label' : 'annotation'} spec: ${c}`);
      changes[c.slice(0, eq)] = c.slice(eq + 1);
    }
  }
  let targets: NamedTarget[];
  if ((s.flags.filename ?? []).length > 0) {
    const t = await manifestTargets(s);
    if (!t.ok) return t.error;
    targets = t.value.map((m) => ({ r: m.r, name: m.obj.metadata?.name ?? '', ns: m.obj.metadata?.namespace }));
  } else {
    const t = await namedTargets(s, objectArgs, true);
    if (!t.ok) return t.error;
    targets = t.value.targets;
    if (targets.length === 0) {
      if (s.flags.selector === undefined && !s.flags.all) return error(s.io, 'one or more resources must be specified as <resource> <name> or <resource>/<name>');
      for (const r of t.value.types) {
        const list = await s.client.list(refOf(r, s.namespace), s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector });
        if (!list.ok) return reportStatus(s.io, list.error);
        targets.push(...list.value.items.map((o) => ({ r, name: o.metadata?.name ?? '', ns: o.metadata?.namespace })));
      }
    }
  }
  let code = 0;
  for (const t of targets) {
    const ref = refOf(t.r, t.ns ?? s.namespace);
    const current = await s.client.get(ref, t.name);
    if (!current.ok) {
      code = reportStatus(s.io, current.error);
      continue;
    }
    const existing = (current.value.metadata?.[field] ?? {}) as Record<string, string>;
    const clash = Object.entries(changes).find(([k, v]) => v !== null && k in existing && existing[k] !== v);
    if (clash && !s.flags.overwrite) {
      code = error(s.io, `'${clash[0]}' already has a value (${existing[clash[0]] ?? ''}), and --overwrite is false`);
      continue;
    }
    const unchanged = Object.entries(changes).every(([k, v]) => (v === null ? !(k in existing) : existing[k] === v));
    if (unchanged) {
      s.io.stdout(`${objectName(t.r, t.name)} not ${verb}\n`);
      continue;
    }
    const patch = { metadata: { [field]: changes, resourceVersion: current.value.metadata?.resourceVersion } };
    const patched = await s.client.patch<KubeObject>(ref, t.name, 'merge', patch, s.flags['field-manager'] === undefined ? {} : { fieldManager: s.flags['field-manager'] });
    if (!patched.ok) code = reportStatus(s.io, patched.error);
    else s.io.stdout(`${objectName(t.r, t.name)} ${verb}\n`);
  }
  return code;
}
