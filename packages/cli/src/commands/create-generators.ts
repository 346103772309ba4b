/**
 * `create namespace|configmap|secret generic|token`: objects made from flags as kubectl's generators make them
 * (`--from-literal=k=v`, `--from-file=[key=]path`), and `create token` through the serviceaccounts/token
 * subresource (a TokenRequest with `--duration` and `--audience`), printing the token.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { fail, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import { parseDuration } from '../flags.js';
import { error, objectName, refOf, reportStatus, resolveArg, serverNames, type Session } from '../session.js';

function keyValues(s: Session, binary: boolean): Result<Record<string, string>, string> {
  const out: Record<string, string> = {};
  for (const lit of s.flags['from-literal'] ?? []) {
    const eq = lit.indexOf('=');
    if (eq <= 0) return fail(`invalid literal source ${lit}, expected key=value`);
    const key = lit.slice(0, eq);
    if (key in out) return fail(`cannot add key ${key}, another key by that name already exists in Data for ConfigMap`);
    out[key] = binary ? Buffer.from(lit.slice(eq + 1)).toString('base64') : lit.slice(eq + 1);
  }
  for (const spec of s.flags['from-file'] ?? []) {
    const eq = spec.indexOf('=');
    const path = eq > 0 ? spec.slice(eq + 1) : spec;
    const key = eq > 0 ? spec.slice(0, eq) : basename(path);
    try {
      if (statSync(path).isDirectory()) return fail(`directories are not supported by --from-file here: ${path}`);
      const data = readFileSync(path);
      out[key] = binary ? data.toString('base64') : data.toString('utf8');
    } catch {
      return fail(`error reading ${path}: no such file or directory`);
    }
  }
  return ok(out);
}

async function createOne(s: Session, resourceArg: string, obj: KubeObject): Promise<number> {
  const res = await resolveArg(s, resourceArg);
  if (!res.ok) return res.error;
  const dry = s.flags['dry-run'] === 'server';
  const created = await s.client.create(refOf(res.value, s.namespace), obj, { ...(dry ? { dryRun: true } : {}), ...(s.flags['field-manager'] === undefined ? {} : { fieldManager: s.flags['field-manager'] }) });
  if (!created.ok) return reportStatus(s.io, created.error);
  if (s.flags.output === 'name') s.io.stdout(`${objectName(res.value, created.value.metadata?.name ?? '')}\n`);
  else if (s.flags.output === 'json') s.io.stdout(JSON.stringify(created.value, null, 4) + '\n');
  else s.io.stdout(`${objectName(res.value, created.value.metadata?.name ?? '')} created${dry ? ' (server dry run)' : ''}\n`);
  return 0;
}

/** Runs `create <generator> NAME`. */
export async function cmdCreateGenerated(s: Session, args: string[]): Promise<number> {
  const [what, ...rest] = args;
  if (what === 'namespace' || what === 'ns') {
    const name = rest[0];
    if (!name) return error(s.io, 'exactly one NAME is required, got 0');
    return createOne(s, 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  if (what === 'configmap' || what === 'cm') {
    const name = rest[0];
    if (!name) return error(s.io, 'exactly one NAME is required, got 0');
    const data = keyValues(s, false);
    if (!data.ok) return error(s.io, data.error);
    return createOne(s, 'configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: s.namespace }, ...(Object.keys(data.value).length ? { data: data.value } : {}) });
  }
  if (what === 'secret') {
    if (rest[0] !== 'generic') return error(s.io, `unknown secret type "${rest[0] ?? ''}": svcctl creates secret generic`);
    const name = rest[1];
    if (!name) return error(s.io, 'exactly one NAME is required, got 0');
    const data = keyValues(s, true);
    if (!data.ok) return error(s.io, data.error);
    const type = s.flags.type ?? 'Opaque';
    return createOne(s, 'secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: s.namespace }, type, ...(Object.keys(data.value).length ? { data: data.value } : {}) });
  }
  if (what === 'token') {
    const sa = rest[0];
    if (!sa) return error(s.io, 'exactly one NAME is required, got 0');
    const names = await serverNames(s);
    if (!names.ok) return reportStatus(s.io, names.error);
    const spec: Record<string, unknown> = { audiences: s.flags.audience ?? [] };
    if (s.flags.duration !== undefined) {
      const ms = parseDuration(s.flags.duration);
      if (ms === undefined) return error(s.io, `invalid argument "${s.flags.duration}" for "--duration" flag`);
      spec.expirationSeconds = Math.floor(ms / 1000);
    }
    if ((spec.audiences as string[]).length === 0) delete spec.audiences;
    const authn = names.value.group('authentication');
    const tr = await s.client.create<KubeObject & { status?: { token?: string } }>(
      { group: '', version: 'v1', resource: 'serviceaccounts', namespace: s.namespace },
      { apiVersion: `${authn}/v1`, kind: 'TokenRequest', metadata: { name: sa, namespace: s.namespace }, spec },
      { subresource: 'token' },
    );
    if (!tr.ok) return reportStatus(s.io, tr.error);
    s.io.stdout(`${tr.value.status?.token ?? ''}\n`);
    return 0;
  }
  return error(s.io, `unknown command "${what ?? ''}" for "svcctl create"`);
}
