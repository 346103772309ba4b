/**
 * DeleteOptions from the body (kubectl sends one) or the query: `dryRun`, `gracePeriodSeconds`,
 * `propagationPolicy`, `preconditions`, `orphanDependents`, validated as kube's ValidateDeleteOptions does (422
 * Invalid on `DeleteOptions`: both `orphanDependents` and `propagationPolicy`, an unknown policy, a dryRun other
 * than `All`). A body, when sent, is read alone; otherwise the query (converted as apimachinery's parameter codec does).
 */
import { badRequest, fieldError, type FieldError, type Result } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { DeletePreconditions, PropagationPolicy } from '../../registry/operations/delete-object.js';
import { boolParameter, dryRunErrors, int64Parameter, optionsInvalid } from './request-options.js';
import { decodeBody } from '../decode-body.js';

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
  const raw = await ctx.transport.readBody();
  if (!raw.ok) return raw;
  let body: Record<string, unknown> = {};
  if (raw.value.length > 0) {
    const decoded = await decodeBody(ctx, ['application/json', 'application/yaml']);
    if (!decoded.ok) return decoded;
    body = decoded.value.object as Record<string, unknown>;
  }
  // kube-apiserver reads DeleteOptions from the body when there is one and from the query only otherwise.
  const fromBody = raw.value.length > 0;
  const q = fromBody ? new URLSearchParams() : ctx.query;
  const dryRun = fromBody ? (Array.isArray(body.dryRun) ? (body.dryRun as unknown[]).map(String) : []) : q.getAll('dryRun');
  const policy = fromBody ? (typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined) : q.get('propagationPolicy') ?? undefined;
  const orphan = fromBody ? (typeof body.orphanDependents === 'boolean' ? body.orphanDependents : undefined) : boolParameter(q, 'orphanDependents');
  let grace: number | undefined;
  if (fromBody) {
    if (typeof body.gracePeriodSeconds === 'number') grace = body.gracePeriodSeconds;
  } else {
    const parsed = int64Parameter(q, 'gracePeriodSeconds');
    if (!parsed.ok) return parsed;
    grace = parsed.value;
  }

  const errors: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) {
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
  if (orphan !== undefined) options.orphanDependents = orphan;
  if (policy !== undefined) options.propagationPolicy = policy as PropagationPolicy;
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  return { ok: true, value: options };
}
