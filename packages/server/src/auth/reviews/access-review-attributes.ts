/**
 * What the access reviews share (kube's pkg/apis/authorization/validation and pkg/registry/authorization/util):
 * the spec rules (exactly one of resource or non-resource attributes, a subject to test), the empty-metadata rule,
 * the attributes as the request info an authorizer reads (ResourceAttributesFrom, NonResourceAttributesFrom), the
 * status of a decision, and the answer: the request object with its status filled in.
 */
import { apiVersionOf, fieldError, invalid, type FieldError, type KubeObject, type Status } from '@svc-apiserver/api';
import type { RequestInfo } from '../../request/request-info.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { AuthorizationDecision } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';

type Json = Record<string, unknown>;

/** An object field as a record, or undefined. */
export function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The spec of a (local, self) subject access review, as the server reads it. */
export interface AccessReviewSpec {
  readonly resourceAttributes?: Json;
  readonly nonResourceAttributes?: Json;
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid: string;
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/** Reads `spec` (a null attribute set counts as absent, as Go's nil pointer). */
export function readAccessReviewSpec(object: KubeObject): AccessReviewSpec {
  const spec = record(object['spec']) ?? {};
  const resourceAttributes = record(spec['resourceAttributes']);
  const nonResourceAttributes = record(spec['nonResourceAttributes']);
  const extra: Record<string, readonly string[]> = {};
  for (const [k, v] of Object.entries(record(spec['extra']) ?? {})) extra[k] = strings(v);
  return {
    ...(resourceAttributes !== undefined ? { resourceAttributes } : {}),
    ...(nonResourceAttributes !== undefined ? { nonResourceAttributes } : {}),
    user: str(spec['user']),
    groups: strings(spec['groups']),
    uid: str(spec['uid']),
    extra,
  };
}

/**
 * ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec: exactly one of the attribute sets, and
 * (not for self reviews, whose subject is the caller) a user or groups to test.
 */
export function validateAccessReviewSpec(spec: AccessReviewSpec, needsSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errs.push(fieldError.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    errs.push(fieldError.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (needsSubject && spec.user === '' && spec.groups.length === 0) {
    errs.push(fieldError.invalid('spec.user', spec.user, 'at least one of user or group must be specified'));
  }
  return errs;
}

/**
 * The review's metadata must be empty (ValidateSubjectAccessReview and friends compare it with an empty ObjectMeta,
 * managed fields left out; an unset `creationTimestamp` is empty too). The namespace is not part of the rule: a
 * local review carries its path's, and kube's create handler clears it on cluster-scoped ones; `local` only words
 * the message.
 */
export function validateReviewMetadata(object: KubeObject, local: boolean): FieldError[] {
  const metadata = record(object.metadata) ?? {};
  const set = Object.entries(metadata).filter(([k, v]) => {
    if (k === 'managedFields' || k === 'namespace') return false;
    if (v === null || v === undefined || v === '' || v === 0) return false;
    if (Array.isArray(v)) return v.length > 0;
    return typeof v !== 'object' || Object.keys(v).length > 0;
  });
  if (set.length === 0) return [];
  return [fieldError.invalid('metadata', metadata, local ? 'must be empty except for namespace' : 'must be empty')];
}

/** 422 Invalid for a review, named `""` as kube names it (reviews have no name). */
export function invalidReview(def: ResourceDef, errors: readonly FieldError[]): Status {
  return invalid(def.kind, { group: def.group, resource: def.resource }, '', errors);
}

/**
 * The request info an authorizer is asked about: ResourceAttributesFrom (an empty version is every version) or
 * NonResourceAttributesFrom.
 */
export function requestInfoFromSpec(spec: Pick<AccessReviewSpec, 'resourceAttributes' | 'nonResourceAttributes'>): RequestInfo {
  const ra = spec.resourceAttributes;
  if (ra !== undefined) {
    const group = str(ra['group']);
    return {
      isResourceRequest: true,
      path: '',
      verb: str(ra['verb']),
      apiPrefix: group === '' ? 'api' : 'apis',
      apiGroup: group,
      apiVersion: str(ra['version']) || '*',
      namespace: str(ra['namespace']),
      resource: str(ra['resource']),
      subresource: str(ra['subresource']),
      name: str(ra['name']),
      parts: [],
    };
  }
  const na = spec.nonResourceAttributes ?? {};
  const path = str(na['path']);
  return {
    isResourceRequest: false, path, verb: str(na['verb']), apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '',
    resource: '', subresource: '', name: '', parts: path.split('/').filter((p) => p !== ''),
  };
}

/** The user a SubjectAccessReview asks about (AuthorizationAttributesFrom): user, groups, uid and extra of its spec. */
export function userFromSpec(spec: AccessReviewSpec): UserInfo {
  return {
    username: spec.user,
    groups: [...spec.groups],
    ...(spec.uid !== '' ? { uid: spec.uid } : {}),
    ...(Object.keys(spec.extra).length > 0 ? { extra: spec.extra } : {}),
  };
}

/**
 * SubjectAccessReviewStatus of a decision: `allowed` always, `denied` only when true, `reason` and
 * `evaluationError` when set (their JSON omits empty values). A negative decision is an answer, never an error.
 */
export function accessReviewStatus(decision: AuthorizationDecision): Json {
  return {
    allowed: decision.decision === 'allow',
    ...(decision.decision === 'deny' ? { denied: true } : {}),
    ...(decision.reason ? { reason: decision.reason } : {}),
    ...(decision.evaluationError ? { evaluationError: decision.evaluationError } : {}),
  };
}

/** The spec fields a review answer repeats: what kube decoded (unknown and empty fields left out). */
export function echoedSpec(object: KubeObject, fields: readonly string[]): Json {
  const spec = record(object['spec']) ?? {};
  const out: Json = {};
  for (const f of fields) {
    const v = spec[f];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    const attributes = f === 'resourceAttributes' || f === 'nonResourceAttributes' ? record(v) : undefined;
    // The attribute sets are structs of strings: their empty fields are left out too.
    out[f] = attributes !== undefined ? Object.fromEntries(Object.entries(attributes).filter(([, a]) => a !== '' && a !== null)) : structuredClone(v);
  }
  return out;
}

/**
 * The answer: the request object with `status` filled in. kube's unset `creationTimestamp` encodes as null, its
 * other empty metadata is left out.
 */
export function reviewAnswer(def: ResourceDef, metadata: Json, spec: Json, status: Json): KubeObject {
  const answer: Json = {
    apiVersion: apiVersionOf(def.group, def.version),
    kind: def.kind,
    metadata: { ...metadata, creationTimestamp: null },
    spec,
    status,
  };
  return answer as KubeObject;
}
