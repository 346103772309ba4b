/**
 * Reads a webhook's connection file (kubeconfig format, as `--authentication-token-webhook-config-file` takes
 * it): the current context's cluster is the remote service, its user the API server's credentials. Relative
 * file paths are resolved against the file's directory.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { HttpsTarget } from './https-fetch.js';

/** Where the webhook is and how to talk to it. */
export interface WebhookConnection {
  readonly server: string;
  readonly target: HttpsTarget;
}

interface Named<T> {
  name?: unknown;
  cluster?: T;
  user?: T;
  context?: T;
}

/** Loads and checks a webhook connection file. */
export function loadWebhookConnection(path: string): Result<WebhookConnection, string> {
  let doc: Record<string, unknown>;
  try {
    doc = (parse(readFileSync(path, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (e) {
    return fail(`${path}: ${(e as Error).message}`);
  }
  const base = dirname(path);
  const current = doc['current-context'];
  if (typeof current !== 'string' || current === '') return fail(`${path}: a current context is required`);
  const find = <T>(list: unknown, name: unknown, key: 'cluster' | 'user' | 'context'): T | undefined => {
    if (!Array.isArray(list)) return undefined;
    const entry = (list as Named<T>[]).find((e) => e?.name === name);
    return entry?.[key];
  };
  const context = find<{ cluster?: unknown; user?: unknown }>(doc.contexts, current, 'context');
  if (context === undefined) return fail(`${path}: context ${JSON.stringify(current)} not found`);
  const cluster = find<Record<string, unknown>>(doc.clusters, context.cluster, 'cluster');
  if (cluster === undefined || typeof cluster.server !== 'string') return fail(`${path}: cluster of context ${JSON.stringify(current)} has no server`);
  const user = find<Record<string, unknown>>(doc.users, context.user, 'user') ?? {};
  const read = (dataKey: string, fileKey: string, from: Record<string, unknown>): string | undefined | { error: string } => {
    const data = from[dataKey];
    // `token` is given as is; the `*-data` fields are base64.
    if (typeof data === 'string' && data !== '') return dataKey === 'token' ? data : Buffer.from(data, 'base64').toString('utf8');
    const file = from[fileKey];
    if (typeof file !== 'string' || file === '') return undefined;
    try {
      return readFileSync(isAbsolute(file) ? file : join(base, file), 'utf8');
    } catch (e) {
      return { error: `${path}: ${(e as Error).message}` };
    }
  };
  const parts: Record<string, string | undefined> = {};
  for (const [name, dataKey, fileKey, from] of [
    ['ca', 'certificate-authority-data', 'certificate-authority', cluster],
    ['cert', 'client-certificate-data', 'client-certificate', user],
    ['key', 'client-key-data', 'client-key', user],
    ['token', 'token', 'tokenFile', user],
  ] as const) {
    const v = read(dataKey, fileKey, from);
    if (typeof v === 'object') return fail(v.error);
    parts[name] = v?.trim() === '' ? undefined : name === 'token' ? v?.trim() : v;
  }
  const target: HttpsTarget = {
    ...(parts.ca !== undefined ? { ca: parts.ca } : {}),
    ...(parts.cert !== undefined ? { cert: parts.cert } : {}),
    ...(parts.key !== undefined ? { key: parts.key } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecureSkipVerify: true } : {}),
    ...(parts.token !== undefined ? { headers: { authorization: `Bearer ${parts.token}` } } : {}),
  };
  return ok({ server: cluster.server, target });
}
