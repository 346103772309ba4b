/**
 * `svcctl describe TYPE [NAME...] | TYPE/NAME | -l`: each object in kubectl's layout — Name, Namespace, Labels,
 * Annotations, then its other fields as indented `Key: value` lines — followed by the Events whose involvedObject
 * is the object. One layout serves every kind (kubectl has a describer per kind; the fields are the same facts).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { age } from '../age.js';
import { table } from '../output.js';
import { error, namedTargets, refOf, reportStatus, type NamedTarget, type Session } from '../session.js';

function title(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

function mapLines(label: string, m: Record<string, string> | undefined): string {
  const entries = Object.entries(m ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return `${`${label}:`.padEnd(14)}<none>\n`;
  return entries.map(([k, v], i) => `${(i === 0 ? `${label}:` : '').padEnd(14)}${k}${label === 'Labels' ? '=' : ': '}${v}\n`).join('');
}

function fieldLines(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}<none>\n`;
    return value.map((v) => (typeof v === 'object' && v !== null ? fieldLines(v, indent) + '\n' : `${indent}${String(v)}\n`)).join('').replace(/\n\n$/, '\n');
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).map(([k, v]) => (typeof v === 'object' && v !== null
      ? `${indent}${title(k)}:\n${fieldLines(v, indent + '  ')}`
      : `${indent}${`${title(k)}:`.padEnd(Math.max(14 - indent.length, k.length + 2))}${String(v)}\n`)).join('');
  }
  return `${indent}${String(value)}\n`;
}

/** The describe text of one object and its events. */
export function describeText(obj: KubeObject, events: readonly KubeObject[], namespaced: boolean): string {
  const m = obj.metadata ?? {};
  let out = `${'Name:'.padEnd(14)}${m.name ?? ''}\n`;
  if (namespaced) out += `${'Namespace:'.padEnd(14)}${m.namespace ?? ''}\n`;
  out += mapLines('Labels', m.labels);
  out += mapLines('Annotations', m.annotations);
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
    out += typeof v === 'object' && v !== null ? `${title(k)}:\n${fieldLines(v, '  ')}` : `${`${title(k)}:`.padEnd(14)}${String(v)}\n`;
  }
  if (events.length === 0) return `${out}Events:       <none>\n`;
  const rows = events.map((e) => {
    const ev = e as KubeObject & { type?: string; reason?: string; lastTimestamp?: string; eventTime?: string; source?: { component?: string }; reportingController?: string; message?: string };
    return [ev.type ?? '', ev.reason ?? '', age(ev.lastTimestamp ?? ev.eventTime ?? ev.metadata?.creationTimestamp), ev.source?.component ?? ev.reportingController ?? '', ev.message ?? ''];
  });
  return `${out}Events:\n${table([['Type', 'Reason', 'Age', 'From', 'Message'], ['----', '------', '----', '----', '-------'], ...rows]).replace(/^/gm, '  ')}`;
}

/** Runs `describe`. */
export async function cmdDescribe(s: Session, args: string[]): Promise<number> {
  const t = await namedTargets(s, args, true);
  if (!t.ok) return t.error;
  let targets: NamedTarget[] = t.value.targets;
  if (targets.length === 0 && t.value.r) {
    const r = t.value.r;
    const list = await s.client.list(refOf(r, s.flags['all-namespaces'] ? undefined : s.namespace), s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector });
    if (!list.ok) return reportStatus(s.io, list.error);
    targets = list.value.items.map((o) => ({ r, name: o.metadata?.name ?? '', ns: o.metadata?.namespace }));
    if (targets.length === 0) return error(s.io, r.namespaced ? `No resources found in ${s.namespace} namespace.` : 'No resources found');
  }
  let code = 0;
  const texts: string[] = [];
  for (const target of targets) {
    const got = await s.client.get(refOf(target.r, target.ns ?? s.namespace), target.name);
    if (!got.ok) {
      code = reportStatus(s.io, got.error);
      continue;
    }
    const uid = got.value.metadata?.uid;
    const evNs = target.r.namespaced ? got.value.metadata?.namespace ?? s.namespace : 'default';
    const events = uid === undefined ? { ok: false as const } : await s.client.list({ group: '', version: 'v1', resource: 'events', namespace: evNs }, { fieldSelector: `involvedObject.uid=${uid}` });
    texts.push(describeText(got.value, events.ok ? events.value.items : [], target.r.namespaced));
  }
  s.io.stdout(texts.join('\n\n'));
  return code;
}
