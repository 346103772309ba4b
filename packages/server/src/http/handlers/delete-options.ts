/**
 * DeleteOptions from the body (kubectl sends one) or the query: `dryRun`, `gracePeriodSeconds`,
 * `propagationPolicy`, `preconditions`, `orphanDependents`, validated as kube's ValidateDeleteOptions does (422
 * Invalid on `DeleteOptions`: both `orphanDependents` and `propagationPolicy`, an unknown policy, a dryRun other
 * than `All`). Body values win over query values.
 */
import { badRequest, fieldError, type FieldError, type Result } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { DeletePreconditions, PropagationPolicy } from '../../registry/operations/delete-object.js';
import { dryRunErrors, optionsInvalid } from './request-options.js';

/** The options of a delete. */
export interface DeleteOptions {
  readonly dryRun: boolean;
  readonly preconditions?: DeletePreconditions;
  readonly orphanDependents?: boolean;
  readonly propagationPolicy?: PropagationPolicy;
  readonly gracePeriodSeconds?: number;
}

const policies: readonly string[] = ['Foreground', 'Background', 'Orphan'];

/** Reads and validates the options; 400 for a malformed body or number, 422 for invalid options. */
export async function readDeleteOptions(ctx: RequestContext): Promise<Result<DeleteOptions>> {
  const raw = await ctx.readBody();
  if (!raw.ok) return raw;
  let body: Record<string, unknown> = {};
  if (raw.value.length > 0) {
    const decoded = await ctx.decodeBody(['application/json', 'application/yaml']);
    if (!decoded.ok) return decoded;
    body = decoded.value.object as Record<string, unknown>;
  }
  const q = ctx.query;
  const dryRun = Array.isArray(body.dryRun) ? (body.dryRun as unknown[]).map(String) : q.getAll('dryRun');
  const policy = typeof body.propagationPolicy === 'string' ? body.propagationPolicy : q.get('propagationPolicy') ?? undefined;
  const orphanText = typeof body.orphanDependents === 'boolean' ? String(body.orphanDependents) : q.get('orphanDependents') ?? undefined;
  if (orphanText !== undefined && orphanText !== 'true' && orphanText !== 'false') {
    return { ok: false, error: badRequest(`orphanDependents: invalid value ${JSON.stringify(orphanText)}: expected a boolean`) };
  }
  const graceText = typeof body.gracePeriodSeconds === 'number' ? String(body.gracePeriodSeconds) : q.get('gracePeriodSeconds') ?? '';
  if (graceText !== '' && !/^-?\d+$/.test(graceText)) return { ok: false, error: badRequest(`invalid gracePeriodSeconds: ${JSON.stringify(graceText)}`) };

  const errors: FieldError[] = [];
  if (orphanText !== undefined && policy !== undefined) {
    errors.push(fieldError.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !policies.includes(policy)) {
    errors.push(fieldError.notSupported('propagationPolicy', policy, [...policies, 'nil']));
  }
  errors.push(...dryRunErrors(dryRun));
  if (errors.length > 0) return { ok: false, error: optionsInvalid(ctx.names, 'DeleteOptions', errors) };

  const bodyPre = (body.preconditions ?? {}) as { uid?: unknown; resourceVersion?: unknown };
  const preconditions: { uid?: string; resourceVersion?: string } = {};
  const uid = typeof bodyPre.uid === 'string' ? bodyPre.uid : q.get('preconditions.uid') ?? undefined;
  const rv = typeof bodyPre.resourceVersion === 'string' ? bodyPre.resourceVersion : q.get('preconditions.resourceVersion') ?? undefined;
  if (uid !== undefined) preconditions.uid = uid;
  if (rv !== undefined) preconditions.resourceVersion = rv;
  const options: { -readonly [K in keyof DeleteOptions]: DeleteOptions[K] } = { dryRun: dryRun.length > 0, preconditions };
  if (orphanText !== undefined) options.orphanDependents = orphanText === 'true';
  if (policy !== undefined) options.propagationPolicy = policy as PropagationPolicy;
  if (graceText !== '') options.gracePeriodSeconds = Number(graceText);
  return { ok: true, value: options };
}
