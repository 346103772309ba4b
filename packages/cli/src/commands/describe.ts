/**
 * `svcctl describe TYPE [NAME_PREFIX...] | TYPE/NAME | -l SEL | -A`, as kubectl's describe: each object in its
 * kind's layout (`describe/kind-describers.ts`) or kubectl's generic one, separated by a blank line pair; a name
 * that matches nothing describes the objects whose names start with it; the Events about each object follow.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { DiscoveredResource } from '@svc-apiserver/client';
import { createDescribeWriter } from '../describe/describe-writer.js';
import { describeGeneric } from '../describe/generic-describer.js';
import { kindDescribers, type DescribeContext } from '../describe/kind-describers.js';
import { namedTargets, refOf, reportStatus, serverNames, type NamedTarget, type Session } from '../session.js';

/** The describe text of one object. */
async function describeOne(s: Session, r: DiscoveredResource, obj: KubeObject, lastApplied: string, groupKey: string): Promise<string> {
  const ns = obj.metadata?.namespace;
  const ctx: DescribeContext = {
    obj,
    lastApplied,
    async events() {
      const uid = obj.metadata?.uid;
      if (uid === undefined) return [];
      const events = await s.client.list({ group: '', version: 'v1', resource: 'events', ...(ns ? { namespace: ns } : {}) }, { fieldSelector: `involvedObject.uid=${uid}` });
      return events.ok ? events.value.items : [];
    },
    async listCore(resource) {
      const namespace = r.kind === 'Namespace' ? obj.metadata?.name : ns;
      const list = await s.client.list({ group: '', version: 'v1', resource, ...(namespace ? { namespace } : {}) });
      return list.ok ? list.value.items : [];
    },
  };
  const w = createDescribeWriter();
  const describer = kindDescribers[`${groupKey}/${r.kind}`];
  if (describer) await describer(w, ctx);
  else describeGeneric(w, obj, await ctx.events(), lastApplied);
  return w.text();
}

/** Runs `describe`. */
export async function cmdDescribe(s: Session, args: string[]): Promise<number> {
  const t = await namedTargets(s, args, true);
  if (!t.ok) return t.error;
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const lastApplied = names.value.domain('last-applied-configuration', 'kubectl');
  const all = s.flags['all-namespaces'] === true;
  const found: Array<{ r: DiscoveredResource; obj: KubeObject }> = [];
  let code = 0;
  let byPrefix = false;
  const listOf = async (r: DiscoveredResource): Promise<KubeObject[] | undefined> => {
    const list = await s.client.list(refOf(r, all ? undefined : s.namespace), s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector });
    if (!list.ok) {
      code = reportStatus(s.io, list.error);
      return undefined;
    }
    return list.value.items;
  };
  const targets: NamedTarget[] = t.value.targets;
  if (targets.length === 0) for (const r of t.value.types) for (const obj of (await listOf(r)) ?? []) found.push({ r, obj });
  for (const target of targets) {
    const got = await s.client.get(refOf(target.r, target.ns ?? s.namespace), target.name);
    if (got.ok) {
      found.push({ r: target.r, obj: got.value });
      continue;
    }
    // kubectl describes the objects whose names start with a name that matches none
    const prefixed = got.error.code === 404 && targets.length === 1 && t.value.types.length === 1 ? ((await listOf(target.r)) ?? []).filter((o) => (o.metadata?.name ?? '').startsWith(target.name)) : [];
    if (prefixed.length === 0) code = reportStatus(s.io, got.error);
    byPrefix = prefixed.length > 0;
    for (const obj of prefixed) found.push({ r: target.r, obj });
  }
  const texts: string[] = [];
  for (const { r, obj } of found) texts.push(await describeOne(s, r, obj, lastApplied, names.value.groupKey(r.group)));
  // kubectl ends each prefix match with a line break, and separates the others by two
  s.io.stdout(byPrefix ? texts.map((x) => `${x}\n`).join('') : texts.join('\n\n'));
  if (found.length === 0 && code === 0) {
    s.io.stderr(all ? 'No resources found\n' : `No resources found in ${s.namespace} namespace.\n`);
  }
  return code;
}
