/**
 * kubectl's generic describer, for kinds without a layout of their own (Events, CustomResourceDefinitions, custom
 * resources, ...): Name, Namespace, Labels, Annotations, then every other field in key order with kubectl's
 * "smart" labels (`apiVersion` → `API Version`, `involvedObject` → `Involved Object`), nested by level, then the
 * Events.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';

const acronyms = new Set(['API', 'URL', 'UID', 'OSB', 'GUID']);

/** Splits a word where its character class changes, as fatih/camelcase does (`HTMLParser` → `HTML`, `Parser`). */
function camelSplit(word: string): string[] {
  const cls = (c: string): number => (/[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : /[0-9]/.test(c) ? 3 : 4);
  const runs: string[] = [];
  let last = 0;
  for (const c of word) {
    const k = cls(c);
    if (k === last && runs.length > 0) runs[runs.length - 1] += c;
    else runs.push(c);
    last = k;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    const a = runs[i] ?? '';
    const b = runs[i + 1] ?? '';
    if (cls(a[0] ?? '') === 2 && cls(b[0] ?? '') === 1) {
      runs[i + 1] = (a.slice(-1)) + b;
      runs[i] = a.slice(0, -1);
    }
  }
  return runs.filter((r) => r !== '');
}

/** kubectl's smartLabelFor. */
export function smartLabel(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  return camelSplit(field).filter((p) => p !== '_')
    .map((p) => (acronyms.has(p.toUpperCase()) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1))).join(' ');
}

const scalar = (v: unknown): string => (v === null || v === undefined ? '<nil>' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** kubectl's printUnstructuredContent. */
function writeContent(w: DescribeWriter, level: number, content: Readonly<Record<string, unknown>>, prefix: string, skip: ReadonlySet<string>): void {
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const path = `${prefix}.${field}`;
    if (skip.has(path)) continue;
    if (Array.isArray(value)) {
      w.write(level, `${smartLabel(field)}:\n`);
      for (const child of value) {
        if (typeof child === 'object' && child !== null && !Array.isArray(child)) writeContent(w, level + 1, child as Record<string, unknown>, path, skip);
        else w.write(level + 1, `${scalar(child)}\n`);
      }
    } else if (typeof value === 'object' && value !== null) {
      w.write(level, `${smartLabel(field)}:\n`);
      writeContent(w, level + 1, value as Record<string, unknown>, path, skip);
    } else {
      w.write(level, `${smartLabel(field)}:\t${scalar(value)}\n`);
    }
  }
}

const genericSkip = new Set(['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);

/** The generic layout of any object. */
export function describeGeneric(w: DescribeWriter, obj: KubeObject, events: readonly KubeObject[], lastApplied: string): void {
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
  writeLabels(w, 'Labels', obj.metadata?.labels);
  writeAnnotations(w, 'Annotations', obj.metadata?.annotations, lastApplied);
  writeContent(w, 0, obj, '', genericSkip);
  writeEvents(w, events);
}
