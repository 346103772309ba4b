/**
 * The AdmissionReview exchanged with a webhook (document 3 §Webhook request and response; kube's
 * request.CreateAdmissionObjects and VerifyAdmissionResponse), in `admission.<suffix>/v1` or `v1beta1` — the first
 * of the webhook's `admissionReviewVersions` the server speaks. The request carries a fresh uid, the (possibly
 * equivalent) kind and resource with the original request's beside them, the user, the objects and options, and
 * dry run. The answer must be an AdmissionReview of the same version whose `response.uid` echoes the request's
 * (v1), with `allowed`; a patch (base64 JSONPatch) only from mutating webhooks and only with `patchType`.
 */
import { randomUUID } from 'node:crypto';
import { fail, type KubeObject, type Names, type Result, type Status } from '@svc-apiserver/api';
import { asObject, stringMap, type Json } from '../object-access.js';
import type { AdmissionAttributes } from '../plugin.js';
import type { Invocation } from './webhook-matcher.js';

/** The review versions the server speaks, in preference order. */
export const supportedReviewVersions: readonly string[] = ['v1', 'v1beta1'];

/** The first of a webhook's versions the server speaks (undefined when none: such a configuration is refused). */
export function reviewVersionFor(versions: readonly string[]): string | undefined {
  return versions.find((v) => supportedReviewVersions.includes(v));
}

/** A request ready to send. */
export interface ReviewRequest {
  readonly uid: string;
  readonly version: string;
  /** The AdmissionReview as sent (JSON). */
  readonly body: string;
}

/**
 * The review of one request in one version, encoded once: each call (to each webhook shown the same objects) gets
 * its own uid spliced into the same text.
 */
export interface ReviewEncoder {
  readonly version: string;
  /** A request with a fresh uid. */
  request(): ReviewRequest;
}

/** The options object of an operation (CreateOptions, UpdateOptions, DeleteOptions; none for CONNECT). */
function optionsFor(a: AdmissionAttributes, names: Names): Json | null {
  const kinds = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;
  if (a.operation === 'CONNECT') return null;
  return { kind: kinds[a.operation], apiVersion: `${names.group('meta')}/v1`, ...(a.dryRun ? { dryRun: ['All'] } : {}) };
}

/** Encodes the review of an invocation; `object` and `oldObject` are in the invocation's version. */
export function reviewEncoder(
  a: AdmissionAttributes, invocation: Invocation, version: string, names: Names, object: KubeObject | undefined, oldObject: KubeObject | undefined,
): ReviewEncoder {
  const requestKind = { group: a.kindGroupVersion?.group ?? a.group, version: a.kindGroupVersion?.version ?? a.version, kind: a.kind };
  const user = a.user;
  // Everything of `request` but its leading uid, which each call splices in.
  const rest: Json = {
    kind: invocation.kind,
    resource: { group: invocation.group, version: invocation.version, resource: invocation.resource },
    ...(invocation.subresource !== '' ? { subResource: invocation.subresource } : {}),
    requestKind,
    requestResource: { group: a.group, version: a.version, resource: a.resource },
    ...(a.subresource !== '' ? { requestSubResource: a.subresource } : {}),
    ...(a.name !== '' ? { name: a.name } : {}),
    ...(a.namespace !== '' ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: {
      username: user.username,
      ...(user.uid !== undefined && user.uid !== '' ? { uid: user.uid } : {}),
      ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
      ...(user.extra !== undefined && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
    },
    object: a.operation === 'DELETE' ? null : (object ?? null),
    oldObject: a.operation === 'CREATE' || a.operation === 'CONNECT' ? null : (oldObject ?? null),
    dryRun: a.dryRun,
    options: optionsFor(a, names),
  };
  const head = `{"kind":"AdmissionReview","apiVersion":${JSON.stringify(`${names.group('admission')}/${version}`)},"request":{"uid":"`;
  const tail = `",${JSON.stringify(rest).slice(1)}}`;
  return {
    version,
    request() {
      // A UUID needs no escaping in JSON.
      const uid = randomUUID();
      return { uid, version, body: `${head}${uid}${tail}` };
    },
  };
}

/** What a webhook answered, checked. */
export interface ReviewResponse {
  readonly allowed: boolean;
  /** `status` of a denial (code, message, reason). */
  readonly result?: Partial<Status>;
  /** The patch as sent: base64 of a JSON patch document (decoded by the caller, whose errors are the server's). */
  readonly patch?: string;
  readonly patchType?: string;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The fields of a webhook's `status` that are of their types (others are dropped, as they would not decode). */
function statusOf(s: Json): Partial<Status> {
  return {
    ...(typeof s['code'] === 'number' && Number.isInteger(s['code']) ? { code: s['code'] } : {}),
    ...(typeof s['message'] === 'string' ? { message: s['message'] } : {}),
    ...(typeof s['reason'] === 'string' ? { reason: s['reason'] } : {}),
    ...(s['status'] === 'Success' || s['status'] === 'Failure' ? { status: s['status'] } : {}),
    ...(asObject(s['details']) !== undefined ? { details: s['details'] as NonNullable<Status['details']> } : {}),
  };
}

/** VerifyAdmissionResponse: the checked response, or why the answer cannot be used. */
export function verifyReviewResponse(body: unknown, request: ReviewRequest, mutating: boolean, names: Names): Result<ReviewResponse, string> {
  const review = asObject(body);
  const response = asObject(review?.['response']);
  if (response === undefined) return fail('webhook response was absent');
  const expected = `${names.group('admission')}/${request.version}`;
  if (request.version === 'v1') {
    if (response['uid'] !== request.uid) return fail(`expected response.uid="${request.uid}", got "${String(response['uid'] ?? '')}"`);
    if (review?.['apiVersion'] !== expected || review['kind'] !== 'AdmissionReview') {
      return fail(`expected webhook response of ${expected}, Kind=AdmissionReview, got ${String(review?.['apiVersion'] ?? '')}, Kind=${String(review?.['kind'] ?? '')}`);
    }
  }
  // A missing `allowed` is false, as Go decodes it; a value of another type does not decode.
  const allowed = response['allowed'] ?? false;
  if (typeof allowed !== 'boolean') return fail('json: cannot unmarshal into Go struct field AdmissionResponse.response.allowed of type bool');
  const patchText = response['patch'] ?? '';
  const patchType = response['patchType'] ?? '';
  if (typeof patchText !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(patchText) || patchText.length % 4 !== 0) {
    return fail('json: cannot unmarshal response.patch: illegal base64 data');
  }
  if (typeof patchType !== 'string') return fail('json: cannot unmarshal into Go struct field AdmissionResponse.response.patchType of type string');
  const hasPatch = patchText !== '';
  if (request.version === 'v1' && mutating && hasPatch && patchType === '') return fail('webhook returned response.patch but not response.patchType');
  if (request.version === 'v1' && mutating && !hasPatch && patchType !== '') return fail('webhook returned response.patchType but not response.patch');
  if (!mutating && hasPatch) return fail('validating webhook may not return response.patch');
  if (!mutating && patchType !== '') return fail('validating webhook may not return response.patchType');
  const warningsValue = response['warnings'] ?? [];
  if (!Array.isArray(warningsValue) || !warningsValue.every((w) => typeof w === 'string')) {
    return fail('json: cannot unmarshal into Go struct field AdmissionResponse.response.warnings of type []string');
  }
  const status = response['status'];
  if (status !== undefined && status !== null && asObject(status) === undefined) {
    return fail('json: cannot unmarshal into Go struct field AdmissionResponse.response.status of type v1.Status');
  }
  return {
    ok: true,
    value: {
      allowed,
      ...(asObject(status) !== undefined ? { result: statusOf(asObject(status)!) } : {}),
      ...(hasPatch ? { patch: patchText } : {}),
      ...(patchType !== '' ? { patchType } : {}),
      warnings: warningsValue as string[],
      auditAnnotations: stringMap(response['auditAnnotations']),
    },
  };
}
