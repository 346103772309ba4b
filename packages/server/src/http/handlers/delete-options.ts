/**
 * DeleteOptions from the body (kubectl sends one) or the query: `dryRun`, `gracePeriodSeconds`,
 * `propagationPolicy`, `preconditions`, `orphanDependents`. Grace periods and propagation are accepted; graceful
 * deletion and garbage collection come with later issues.
 */
import { badRequest } from '@svc-apiserver/api';
import type { Outcome, RequestContext } from '../context.js';
import type { DeletePreconditions } from '../../registry/operations/delete-object.js';
import { parseDryRun } from './request-options.js';

/** The options of a delete. */
export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly preconditions?: DeletePreconditions;
  readonly orphanDependents?: boolean;
  readonly propagationPolicy?: string;
  readonly gracePeriodSeconds?: number;
}

const policies = ['Foreground', 'Background', 'Orphan'];

/** Reads the options; 400 for a malformed body or value. */
export async function readDeleteOptions(ctx: RequestContext): Promise<Outcome<DeleteOptions>> {
  const raw = await ctx.readBody();
  if (!raw.ok) return raw;
  let body: Record<string, unknown> = {};
  if (raw.value.length > 0) {
    const decoded = await ctx.decodeBody(['application/json', 'application/yaml']);
    if (!decoded.ok) return decoded;
    body = decoded.value.object as Record<string, unknown>;
  }
  const queryDryRun = parseDryRun(ctx.query);
  if (!queryDryRun.ok) return queryDryRun;
  const bodyDryRun = Array.isArray(body.dryRun) ? (body.dryRun as unknown[]) : [];
  if (bodyDryRun.some((v) => v !== 'All')) return { ok: false, status: badRequest('dryRun: Unsupported value: supported values: "All"') };
  const policy = typeof body.propagationPolicy === 'string' ? body.propagationPolicy : ctx.query.get('propagationPolicy') ?? undefined;
  if (policy !== undefined && policy !== '' && !policies.includes(policy)) {
    return { ok: false, status: badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`) };
  }
  const graceText = typeof body.gracePeriodSeconds === 'number' ? String(body.gracePeriodSeconds) : ctx.query.get('gracePeriodSeconds') ?? '';
  if (graceText !== '' && !/^-?\d+$/.test(graceText)) return { ok: false, status: badRequest(`invalid gracePeriodSeconds: ${JSON.stringify(graceText)}`) };
  const pre = (body.preconditions ?? {}) as { uid?: unknown; resourceVersion?: unknown };
  const preconditions: { uid?: string; resourceVersion?: string } = {};
  if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
  if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  const options: { -readonly [K in keyof DeleteOptions]: DeleteOptions[K] } = { dryRun: queryDryRun.value || bodyDryRun.length > 0, preconditions };
  if (typeof body.orphanDependents === 'boolean') options.orphanDependents = body.orphanDependents;
  if (policy) options.propagationPolicy = policy;
  if (graceText !== '') options.gracePeriodSeconds = Number(graceText);
  return { ok: true, value: options };
}
