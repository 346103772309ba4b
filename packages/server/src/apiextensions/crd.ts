/**
 * CustomResourceDefinition objects (apiextensions/v1) as the server reads them, with kube's helpers
 * (apihelpers: storage version, served versions, conditions, subresources and columns per version).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { isRecord, type JsonSchemaProps } from './schema/json-schema-props.js';

/** `spec.names` and `status.acceptedNames`. */
export interface CrdNames {
  readonly plural?: string;
  readonly singular?: string;
  readonly kind?: string;
  readonly listKind?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

/** `subresources.scale`. */
export interface CrdScale {
  readonly specReplicasPath?: string;
  readonly statusReplicasPath?: string;
  readonly labelSelectorPath?: string;
}

/** One `additionalPrinterColumns` entry. */
export interface CrdColumn {
  readonly name?: string;
  readonly type?: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  readonly jsonPath?: string;
}

/** One `spec.versions` entry. */
export interface CrdVersion {
  readonly name?: string;
  readonly served?: boolean;
  readonly storage?: boolean;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  readonly schema?: { readonly openAPIV3Schema?: JsonSchemaProps };
  readonly subresources?: { readonly status?: Record<string, unknown>; readonly scale?: CrdScale };
  readonly additionalPrinterColumns?: readonly CrdColumn[];
}

/** A webhook's `clientConfig` (url, or service reference) with its CA bundle. */
export interface WebhookClientConfig {
  readonly url?: string;
  readonly service?: { readonly namespace?: string; readonly name?: string; readonly path?: string; readonly port?: number };
  readonly caBundle?: string;
}

/** `spec.conversion`. */
export interface CrdConversion {
  readonly strategy?: string;
  readonly webhook?: { readonly clientConfig?: WebhookClientConfig; readonly conversionReviewVersions?: readonly string[] };
}

/** `spec`. */
export interface CrdSpec {
  readonly group?: string;
  readonly names?: CrdNames;
  readonly scope?: string;
  readonly versions?: readonly CrdVersion[];
  readonly conversion?: CrdConversion;
  readonly preserveUnknownFields?: boolean;
}

/** A condition of `status.conditions`. */
export interface CrdCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

/** `status`. */
export interface CrdStatus {
  readonly conditions?: readonly CrdCondition[];
  readonly acceptedNames?: CrdNames;
  readonly storedVersions?: readonly string[];
}

/** A CustomResourceDefinition. */
export type CustomResourceDefinition = KubeObject & { spec?: CrdSpec; status?: CrdStatus };

/** The condition types kube sets on a CRD. */
export type CrdConditionType = 'NamesAccepted' | 'Established' | 'Terminating' | 'NonStructuralSchema' | 'KubernetesAPIApprovalPolicyConformant';

/** The spec of a CRD (an empty one when absent). */
export function specOf(crd: CustomResourceDefinition): CrdSpec {
  return isRecord(crd.spec) ? crd.spec : {};
}

/** `spec.versions` (entries that are objects). */
export function versionsOf(crd: CustomResourceDefinition): CrdVersion[] {
  const v = specOf(crd).versions;
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/** The name of the storage version (apihelpers.GetCRDStorageVersion), or undefined. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return versionsOf(crd).find((v) => v.storage === true)?.name;
}

/** A condition of the CRD's status. */
export function conditionOf(crd: CustomResourceDefinition, type: CrdConditionType): CrdCondition | undefined {
  const conditions = crd.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => isRecord(c) && c.type === type) : undefined;
}

/** apihelpers.IsCRDConditionTrue. */
export function isConditionTrue(crd: CustomResourceDefinition, type: CrdConditionType): boolean {
  return conditionOf(crd, type)?.status === 'True';
}

/**
 * The conditions with `condition` set (apihelpers.SetCRDCondition): the transition time changes only when the
 * status does.
 */
export function withCondition(conditions: readonly CrdCondition[] | undefined, condition: CrdCondition, now: string): CrdCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === condition.type);
  if (i < 0) return [...list, { ...condition, lastTransitionTime: now }];
  const old = list[i]!;
  const time = old.status === condition.status && old.lastTransitionTime !== undefined ? old.lastTransitionTime : now;
  list[i] = { type: condition.type, status: condition.status, lastTransitionTime: time,
    ...(condition.reason !== undefined ? { reason: condition.reason } : {}), ...(condition.message !== undefined ? { message: condition.message } : {}) };
  return list;
}

/** True when two condition lists say the same (ignoring transition times). */
export function sameConditions(a: readonly CrdCondition[] | undefined, b: readonly CrdCondition[] | undefined): boolean {
  const strip = (l: readonly CrdCondition[] | undefined) => JSON.stringify((l ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']));
  return strip(a) === strip(b);
}

/** The CRD's schema of one version. */
export function schemaOf(version: CrdVersion): JsonSchemaProps | undefined {
  const s = version.schema?.openAPIV3Schema;
  return isRecord(s) ? s : undefined;
}

/** `status.acceptedNames` (empty when absent). */
export function acceptedNamesOf(crd: CustomResourceDefinition): CrdNames {
  const a = crd.status?.acceptedNames;
  return typeof a === 'object' && a !== null && !Array.isArray(a) ? a : {};
}

/** A version's scale subresource, when it names both replica paths. */
export function scaleSubresourceOf(version: CrdVersion): CrdScale | undefined {
  const s = version.subresources?.scale;
  if (typeof s !== 'object' || s === null) return undefined;
  return typeof s.specReplicasPath === 'string' && typeof s.statusReplicasPath === 'string' ? s : undefined;
}
