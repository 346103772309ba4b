/**
 * `svcctl wait TYPE NAME... --for=condition=C[=V] | --for=delete | --for=jsonpath='{...}'=V --timeout=30s`: polls
 * (a watch would do the same work for a handful of objects) until each object meets the condition, printing
 * `condition met`, and fails with kubectl's `timed out waiting for the condition on ...` and exit 1 otherwise.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { parseDuration } from '../flags.js';
import { parseTemplate, printValue, templateValues, type Template } from '../jsonpath.js';
import { error, namedTargets, objectName, refOf, reportStatus, type Session } from '../session.js';

type Condition =
  | { readonly kind: 'delete' }
  | { readonly kind: 'condition'; readonly type: string; readonly value: string }
  | { readonly kind: 'jsonpath'; readonly template: Template; readonly value?: string };

function parseFor(text: string | undefined): Condition | string {
  if (text === undefined) return 'the --for flag is required';
  if (text === 'delete') return { kind: 'delete' };
  if (text.startsWith('condition=')) {
    const [type = '', value = 'true'] = text.slice('condition='.length).split('=');
    return { kind: 'condition', type, value };
  }
  if (text.startsWith('jsonpath=')) {
    const rest = text.slice('jsonpath='.length);
    const close = rest.lastIndexOf('}');
    const expr = close >= 0 ? rest.slice(0, close + 1) : rest;
    const value = close >= 0 && rest[close + 1] === '=' ? rest.slice(close + 2) : undefined;
    const t = parseTemplate(expr.startsWith('{') ? expr : `{${expr}}`);
    if (!t.ok) return t.error;
    return { kind: 'jsonpath', template: t.value, ...(value === undefined ? {} : { value }) };
  }
  return `unrecognized condition: "${text}"`;
}

function met(obj: KubeObject, c: Condition): boolean {
  if (c.kind === 'condition') {
    const conditions = ((obj as { status?: { conditions?: Array<{ type?: string; status?: string }> } }).status?.conditions ?? []);
    return conditions.some((x) => x.type?.toLowerCase() === c.type.toLowerCase() && x.status?.toLowerCase() === c.value.toLowerCase());
  }
  if (c.kind === 'jsonpath') {
    const values = templateValues(c.template, obj);
    return c.value === undefined ? values.length > 0 : values.some((v) => printValue(v) === c.value);
  }
  return false;
}

/** Runs `wait`. */
export async function cmdWait(s: Session, args: string[]): Promise<number> {
  const c = parseFor(s.flags.for);
  if (typeof c === 'string') return error(s.io, c);
  const timeoutMs = s.flags.timeout === undefined ? 30_000 : parseDuration(s.flags.timeout);
  if (timeoutMs === undefined) return error(s.io, `invalid argument "${s.flags.timeout ?? ''}" for "--timeout" flag`);
  const t = await namedTargets(s, args);
  if (!t.ok) return t.error;
  const deadline = Date.now() + timeoutMs;
  for (const target of t.value.targets) {
    const ref = refOf(target.r, s.namespace);
    let uid: string | undefined;
    for (;;) {
      const got = await s.client.get(ref, target.name);
      if (!got.ok && got.error.code !== 404) return reportStatus(s.io, got.error);
      if (c.kind === 'delete') {
        if (!got.ok || (uid !== undefined && got.value.metadata?.uid !== uid)) {
          s.io.stdout(`${objectName(target.r, target.name)} condition met\n`);
          break;
        }
        uid ??= got.value.metadata?.uid;
      } else if (!got.ok) {
        if (Date.now() >= deadline) return reportStatus(s.io, got.error);
      } else if (met(got.value, c)) {
        s.io.stdout(`${objectName(target.r, target.name)} condition met\n`);
        break;
      }
      if (Date.now() >= deadline || s.io.signal?.aborted) return error(s.io, `timed out waiting for the condition on ${target.r.resource}/${target.name}`);
      await new Promise((r) => setTimeout(r, Math.min(200, Math.max(1, deadline - Date.now()))));
    }
  }
  return 0;
}
