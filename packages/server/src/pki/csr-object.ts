/**
 * Typed reading of CertificateSigningRequest objects (certificates/v1), shared by the strategy, the admission
 * plugins and the certificate controllers: `spec.request` and `status.certificate` are bytes (base64 in JSON), and
 * conditions are looked up by type as kube's certificates helpers do.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** One entry of `status.conditions`. */
export interface CsrCondition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
  lastUpdateTime?: unknown;
  lastTransitionTime?: unknown;
}

/** The fields of a CertificateSigningRequest. */
export interface CsrSpec {
  request?: unknown;
  signerName?: unknown;
  expirationSeconds?: unknown;
  usages?: unknown;
  username?: unknown;
  uid?: unknown;
  groups?: unknown;
  extra?: unknown;
}

/** A CertificateSigningRequest as stored. */
export type CsrObject = KubeObject & {
  spec?: CsrSpec;
  status?: { conditions?: CsrCondition[]; certificate?: unknown };
};

/** Condition types of certificates/v1. */
export const csrConditionTypes = { approved: 'Approved', denied: 'Denied', failed: 'Failed' } as const;

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of a base64 field, or undefined when the value is not base64 text (`''` is zero bytes). */
export function bytesField(value: unknown): Buffer | undefined {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (typeof value !== 'string' || !strictBase64.test(value)) return undefined;
  return Buffer.from(value, 'base64');
}

/** The conditions of a request (entries that are not objects read as empty ones). */
export function csrConditions(csr: CsrObject): CsrCondition[] {
  const list = csr.status?.conditions;
  return (Array.isArray(list) ? list : []).map((c) => (typeof c === 'object' && c !== null ? c : {}));
}

/** True when a condition of `type` has status True (certificates.HasTrueCondition). */
export function hasTrueCondition(csr: CsrObject, type: string): boolean {
  return csrConditions(csr).some((c) => c.type === type && c.status === 'True');
}

/** Whether the request was approved or denied (GetCertApprovalCondition). */
export function approvalState(csr: CsrObject): { approved: boolean; denied: boolean } {
  let approved = false;
  let denied = false;
  for (const c of csrConditions(csr)) {
    if (c.type === csrConditionTypes.approved) approved = true;
    if (c.type === csrConditionTypes.denied) denied = true;
  }
  return { approved, denied };
}

/** The issued certificate bytes (empty when none or not base64). */
export function issuedCertificate(csr: CsrObject): Buffer {
  return bytesField(csr.status?.certificate) ?? Buffer.alloc(0);
}

/** The signer name (`''` when unset). */
export function signerNameOf(csr: CsrObject): string {
  return typeof csr.spec?.signerName === 'string' ? csr.spec.signerName : '';
}

/** The requested usages that are strings. */
export function usagesOf(csr: CsrObject): string[] {
  const u = csr.spec?.usages;
  return Array.isArray(u) ? u.filter((x): x is string => typeof x === 'string') : [];
}
