/**
 * `svcctl describe TYPE[,TYPE...] [NAME_PREFIX...] | TYPE/NAME... | -l SEL | -A`, as kubectl's describe: each
 * object in its kind's layout (`describe/kind-describers.ts`) or kubectl's generic one, separated by a blank line
 * pair; a `TYPE NAME` that matches nothing describes the objects whose names start with it; the Events about each
 * object follow.
 */
import type { KubeObject, Names, Status } from '@svc-apiserver/api';
import type { DiscoveredResource } from '@svc-apiserver/client';
import type { DescribeContext } from '../describe/describe-context.js';
import { createDescribeWriter } from '../describe/describe-writer.js';
import { describeGeneric } from '../describe/generic-describer.js';
import { kindDescribers } from '../describe/kind-describers.js';
import { error, namedTargets, refOf, reportStatus, serverNames, type NamedTarget, type Session } from '../session.js';

/** The describe text of one object, or the Status of a read its layout needed and was refused. */
async function describeOne(s: Session, names: Names, r: DiscoveredResource, obj: KubeObject): Promise<string | Status> {
  const lastApplied = names.domain('last-applied-configuration', 'kubectl');
  const ctx: DescribeContext = {
    obj,
    names,
    lastApplied,
    async events(uid = obj.metadata?.uid) {
      if (uid === undefined) return [];
      const ns = obj.metadata?.namespace;
      const events = await s.client.list({ group: '', version: 'v1', resource: 'events', ...(ns ? { namespace: ns } : {}) }, { fieldSelector: `involvedObject.uid=${uid}` });
      return events.ok ? events.value.items : [];
    },
    async list(resource, options) {
      const ref = { group: names.group(resource.group), version: resource.version, resource: resource.resource, ...(options.namespace ? { namespace: options.namespace } : {}) };
      const query = { ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}), ...(options.fieldSelector ? { fieldSelector: options.fieldSelector } : {}) };
      const listed = await s.client.list(ref, query);
      return listed.ok ? { ok: true, value: listed.value.items } : listed;
    },
    get(resource, namespace, name) {
      return s.client.get({ group: names.group(resource.group), version: resource.version, resource: resource.resource, ...(namespace ? { namespace } : {}) }, name);
    },
  };
  const w = createDescribeWriter();
  const describer = kindDescribers[`${names.groupKey(r.group)}/${r.kind}`];
  if (describer) {
    const refused = await describer(w, ctx);
    if (refused) return refused;
  } else {
    describeGeneric(w, obj, await ctx.events(), lastApplied);
  }
  return w.text();
}

/** Runs `describe`. */
export async function cmdDescribe(s: Session, args: string[]): Promise<number> {
  const t = await namedTargets(s, args, true);
  if (!t.ok) return t.error;
  const names = await serverNames(s);
  if (!names.ok) return reportStatus(s.io, names.error);
  const all = s.flags['all-namespaces'] === true;
  const found: Array<{ r: DiscoveredResource; obj: KubeObject }> = [];
  const failures: Status[] = [];
  const listOf = async (r: DiscoveredResource): Promise<KubeObject[]> => {
    const list = await s.client.list(refOf(r, all ? undefined : s.namespace), s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector });
    if (list.ok) return list.value.items;
    failures.push(list.error);
    return [];
  };
  const targets: NamedTarget[] = t.value.targets;
  if (targets.length === 0) for (const r of t.value.types) for (const obj of await listOf(r)) found.push({ r, obj });
  for (const target of targets) {
    const got = await s.client.get(refOf(target.r, target.ns ?? s.namespace), target.name);
    if (got.ok) found.push({ r: target.r, obj: got.value });
    else failures.push(got.error);
  }
  // kubectl's DescribeMatchingResources: two arguments of which the one lookup finds nothing describe the objects
  // of the type whose names start with the second instead, or show only that failure
  const [typeArg = '', prefix = ''] = args;
  const [only] = failures;
  if (failures.length === 1 && only?.code === 404 && args.length === 2) {
    // a `TYPE/NAME` pair looks its first object up again and no name holds the slash of the second
    if (typeArg.includes('/')) return reportStatus(s.io, only);
    // the lookup takes one type (each spelling of the argument counts)
    if (new Set(typeArg.split(',')).size > 1) return error(s.io, 'you may only specify a single resource type');
    const [r] = t.value.types;
    const listed = r === undefined ? undefined : await s.client.list(refOf(r, s.namespace));
    const prefixed = listed?.ok ? listed.value.items.filter((o) => (o.metadata?.name ?? '').startsWith(prefix)) : [];
    if (r === undefined || prefixed.length === 0) return reportStatus(s.io, only);
    for (const obj of prefixed) {
      const text = await describeOne(s, names.value, r, obj);
      if (typeof text !== 'string') return reportStatus(s.io, text);
      // kubectl ends each prefix match with a line break
      s.io.stdout(`${text}\n`);
    }
    return 0;
  }
  const texts: string[] = [];
  for (const { r, obj } of found) {
    const text = await describeOne(s, names.value, r, obj);
    if (typeof text === 'string') texts.push(text);
    else failures.push(text);
  }
  s.io.stdout(texts.join('\n\n'));
  for (const f of failures) reportStatus(s.io, f);
  if (found.length === 0 && failures.length === 0) {
    s.io.stderr(all ? 'No resources found\n' : `No resources found in ${s.namespace} namespace.\n`);
  }
  return failures.length > 0 ? 1 : 0;
}
