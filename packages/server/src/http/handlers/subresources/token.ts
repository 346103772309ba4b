/**
 * `serviceaccounts/token` (kube's TokenREST, authentication/v1 TokenRequest): issues a bound service account
 * token. `spec.audiences` defaults to the server's API audiences, `spec.expirationSeconds` to 3600 and must be at
 * least 600 and at most 2^32; `spec.boundObjectRef` may bind the token to a Pod (which must run as this service
 * account) or a Secret, whose uid, when given, must be the live one (409). 201 with the token and its expiry.
 */
import { badRequest, conflict, fieldError, invalid, serviceUnavailable, type FieldError, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import type { ServiceAccountTokenIssuer } from '../../../auth/serviceaccount/token-issuer.js';
import { record } from '../../../registry/conversion/resource-conversion.js';
import { nowTimestamp } from '../../../registry/operations/prepare.js';
import { parseWriteOptions, requestNamespace } from '../request-options.js';
import { readSubresourceBody } from './common.js';
import { requestRecorder } from '../../../admission/recorder.js';
import { admissionAttributes, admitRequest } from '../../../registry/operations/admission-attributes.js';
import { addWarning, writeObject, writeStatus } from '../../response-writer.js';

/** The issuer and the audiences tokens get by default. */
export interface TokenRequestOptions {
  readonly issuer: ServiceAccountTokenIssuer;
  readonly apiAudiences: readonly string[];
}

/** TokenRequestSpec.expirationSeconds default (pkg/apis/authentication/v1 defaults). */
export const defaultExpirationSeconds = 3600;
/** ValidateTokenRequest's bounds. */
const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;

/** ValidateTokenRequest. */
export function validateTokenRequest(spec: Record<string, unknown>): FieldError[] {
  const seconds = spec['expirationSeconds'];
  if (typeof seconds !== 'number') return [];
  if (seconds < minExpirationSeconds) return [fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes')];
  if (seconds > maxExpirationSeconds) return [fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

/** The handler of token requests with `options` (503 without an issuer). */
export function tokenRequestHandler(options: TokenRequestOptions | undefined) {
  return async (ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> => {
    const writeOptions = parseWriteOptions(ctx.query, ctx.names, 'CreateOptions', ctx.headers['user-agent']);
    if (!writeOptions.ok) return writeStatus(ctx, writeOptions.error);
    const name = ctx.info.name;
    const read = await readSubresourceBody(ctx, 'TokenRequest', '');
    if (!read.ok) return writeStatus(ctx, read.error);
    const request = read.value;
    const op = { user: ctx.user, dryRun: writeOptions.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
    const refused = await admitRequest(registry, admissionAttributes(def, 'CREATE', 'token', requestNamespace(ctx, def), name, op, request), op);
    if (refused !== undefined) return writeStatus(ctx, refused);
    const spec = { ...record(request['spec']) };
    const sub = def.subresources.find((s) => s.name === 'token');
    const errs = validateTokenRequest(spec);
    if (errs.length > 0) return writeStatus(ctx, invalid('TokenRequest', { group: sub?.group ?? '', resource: 'TokenRequest' }, '', errs));
    if (options === undefined) return writeStatus(ctx, serviceUnavailable('service account token issuing is not configured'));
    const namespace = requestNamespace(ctx, def);
    const sa = await registry.store.get(def, namespace, name);
    if (!sa.ok) return writeStatus(ctx, sa.error);
    const audiences = Array.isArray(spec['audiences']) && spec['audiences'].length > 0 ? spec['audiences'].map(String) : [...options.apiAudiences];
    const expirationSeconds = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : defaultExpirationSeconds;
    const ref = record(spec['boundObjectRef']);
    let bound: { pod?: { name: string; uid: string }; secret?: { name: string; uid: string } } = {};
    if (ref !== undefined) {
      const kind = String(ref['kind'] ?? '');
      const apiVersion = String(ref['apiVersion'] ?? 'v1');
      const refName = String(ref['name'] ?? '');
      const resource = kind === 'Pod' ? 'pods' : kind === 'Secret' ? 'secrets' : undefined;
      if (resource === undefined || apiVersion !== 'v1') {
        return writeStatus(ctx, badRequest(`cannot bind token for serviceaccount "${name}" to object of kind "${apiVersion}, Kind=${kind}"`));
      }
      const refDef = registry.lookup('', 'v1', resource);
      if (refDef === undefined) return writeStatus(ctx, badRequest(`cannot bind token to ${resource}: not served`));
      const target = await registry.store.get(refDef, namespace, refName);
      if (!target.ok) return writeStatus(ctx, target.error);
      const uid = target.value.metadata?.uid ?? '';
      if (typeof ref['uid'] === 'string' && ref['uid'] !== '' && ref['uid'] !== uid) {
        return writeStatus(ctx, conflict({ group: '', resource: kind }, refName,
          `the UID in the bound object reference (${ref['uid']}) does not match the UID in record. The object might have been deleted and then recreated`));
      }
      if (kind === 'Pod') {
        const podSa = String(record(target.value['spec'])?.['serviceAccountName'] ?? 'default');
        if (podSa !== name) return writeStatus(ctx, badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`));
        bound = { pod: { name: refName, uid } };
      } else {
        bound = { secret: { name: refName, uid } };
      }
      spec['boundObjectRef'] = { ...ref, uid };
    }
    const now = Date.now();
    const token = await options.issuer.issueBound({
      namespace, serviceAccount: { name, uid: sa.value.metadata?.uid ?? '' }, audiences, expirationSeconds, now, ...bound,
    });
    const expiry = new Date(Math.floor(now / 1000) * 1000 + expirationSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const answer: KubeObject = {
      kind: 'TokenRequest',
      apiVersion: sub?.group ? `${sub.group}/${sub.version ?? 'v1'}` : 'v1',
      metadata: { ...request.metadata, name, namespace, creationTimestamp: nowTimestamp() },
      spec: { ...spec, audiences, expirationSeconds },
      status: { token, expirationTimestamp: expiry },
    };
    writeObject(ctx, 201, answer);
  };
}
