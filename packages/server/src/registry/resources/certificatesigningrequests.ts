/**
 * CertificateSigningRequests (pkg/registry/certificates/certificates and pkg/apis/certificates/validation).
 *
 * - Create records the requester in `spec.username`, `uid`, `groups` and `extra` (whatever the client sent there is
 *   replaced) and starts without status.
 * - The spec is fixed after create. Approval conditions (`Approved`, `Denied`) are written only through the
 *   `approval` subresource, the certificate and other conditions only through `status`; each write keeps the
 *   other's part. Approved, Denied and Failed conditions are never removed; a certificate, once set, never changes.
 * - Validation: `spec.request` a PEM `CERTIFICATE REQUEST` whose signature verifies; `signerName` of the form
 *   `example.com/path`, the legacy signer refused in v1; `usages` required, known and without duplicates;
 *   `expirationSeconds` at least 600; conditions typed, with a status (True only for Approved, Denied and Failed),
 *   each type once, never Approved and Denied together; `status.certificate` CERTIFICATE PEM blocks only.
 *   A problem already present in the stored object is tolerated on update, as kube ratchets it.
 */
import { fail, fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import { certificatePemError } from '../../pki/certificate-pem.js';
import { parseCertificateRequest } from '../../pki/csr.js';
import { isKnownKeyUsage, knownKeyUsages } from '../../pki/key-usages.js';
import { defineStrategy, genericStatusStrategy, keepField } from '../default-strategy.js';
import { nowTimestamp } from '../operations/prepare.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { validateSignerName } from './signer-name.js';
import { bytesField, csrConditions, csrConditionTypes, type CsrCondition, type CsrObject } from '../../pki/csr-object.js';

/** Condition types whose status may only be True. */
const trueOnlyTypes: ReadonlySet<string> = new Set(Object.values(csrConditionTypes));
const approvalTypes = [csrConditionTypes.approved, csrConditionTypes.denied] as const;

/** What an update may do or tolerate (kube's certificateValidationOptions). */
interface ValidationOptions {
  readonly allowSettingApprovalConditions: boolean;
  readonly allowSettingCertificate: boolean;
  readonly allowBothApprovedAndDenied: boolean;
  readonly allowLegacySignerName: boolean;
  readonly allowDuplicateConditionTypes: boolean;
  readonly allowEmptyConditionType: boolean;
  readonly allowArbitraryCertificate: boolean;
  readonly allowUnknownUsages: boolean;
  readonly allowDuplicateUsages: boolean;
}

const usagesList = (csr: CsrObject): unknown[] => (Array.isArray(csr.spec?.usages) ? csr.spec.usages : []);

function hasDuplicates(values: readonly unknown[]): boolean {
  return new Set(values.map((v) => JSON.stringify(v))).size !== values.length;
}

function sameCertificate(a: CsrObject, b: CsrObject): boolean {
  return JSON.stringify(a.status?.certificate ?? '') === JSON.stringify(b.status?.certificate ?? '');
}

/** The options of a create (`old` undefined) or an update: what the stored object already breaks is tolerated. */
function validationOptions(csr: CsrObject, old: CsrObject | undefined, legacySigner: string): ValidationOptions {
  const oldTypes = old ? csrConditions(old).map((c) => c.type) : [];
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(csrConditionTypes.approved) && oldTypes.includes(csrConditionTypes.denied),
    allowLegacySignerName: old?.spec?.signerName === legacySigner,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.some((t) => typeof t !== 'string' || t === ''),
    allowArbitraryCertificate: old !== undefined && (sameCertificate(csr, old) || certificateError(old) !== undefined),
    allowUnknownUsages: old !== undefined && usagesList(old).some((u) => typeof u !== 'string' || !isKnownKeyUsage(u)),
    allowDuplicateUsages: old !== undefined && hasDuplicates(usagesList(old)),
  };
}

function certificateError(csr: CsrObject): string | undefined {
  const bytes = bytesField(csr.status?.certificate);
  return bytes === undefined ? 'illegal base64 data' : certificatePemError(bytes);
}

function validateConditionList(csr: CsrObject, o: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  let approved = false;
  let denied = false;
  csrConditions(csr).forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    if (!o.allowEmptyConditionType && (typeof c.type !== 'string' || c.type === '')) errs.push(fieldError.required(`${path}.type`));
    const allowed = trueOnlyTypes.has(String(c.type)) ? ['True'] : ['False', 'True', 'Unknown'];
    if (c.status === undefined || c.status === '') errs.push(fieldError.required(`${path}.status`));
    else if (!allowed.includes(String(c.status))) errs.push(fieldError.notSupported(`${path}.status`, c.status, allowed));
    if (!o.allowBothApprovedAndDenied) {
      if (c.type === csrConditionTypes.approved) {
        approved = true;
        if (denied) errs.push(fieldError.invalid(`${path}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (c.type === csrConditionTypes.denied) {
        denied = true;
        if (approved) errs.push(fieldError.invalid(`${path}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!o.allowDuplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(fieldError.duplicate(`${path}.type`, c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

/** validateCertificateSigningRequest: the whole object against `o`. */
function validateCsr(csr: CsrObject, o: ValidationOptions, legacySigner: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = csr.spec ?? {};
  const request = bytesField(spec.request);
  const parsed = request === undefined ? fail('illegal base64 data') : parseCertificateRequest(request);
  if (!parsed.ok) errs.push(fieldError.invalid('spec.request', spec.request ?? '', parsed.error));
  const usages = usagesList(csr);
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!o.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (typeof u !== 'string' || !isKnownKeyUsage(u)) errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, knownKeyUsages));
    });
  }
  if (!o.allowDuplicateUsages) {
    const seen = new Set<unknown>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldError.duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }
  if (!o.allowLegacySignerName && spec.signerName === legacySigner) {
    errs.push(fieldError.invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', spec.signerName));
  }
  const seconds = spec.expirationSeconds;
  if (typeof seconds === 'number' && seconds < 600) {
    errs.push(fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditionList(csr, o));
  if (!o.allowArbitraryCertificate) {
    const problem = certificateError(csr);
    if (problem !== undefined) errs.push(fieldError.invalid('status.certificate', '<certificate data>', problem));
  }
  return errs;
}

const ofType = (csr: CsrObject, type: string): CsrCondition[] => csrConditions(csr).filter((c) => c.type === type);

/** validateCertificateSigningRequestUpdate: the object, and what an update may not change. */
function validateCsrUpdate(csr: CsrObject, old: CsrObject, o: ValidationOptions, legacySigner: string): FieldError[] {
  const errs = validateCsr(csr, o, legacySigner);
  for (const type of Object.values(csrConditionTypes)) {
    if (ofType(csr, type).length < ofType(old, type).length) {
      errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type "${type}"`));
    }
  }
  if (!o.allowSettingApprovalConditions) {
    for (const type of approvalTypes) {
      const before = ofType(old, type);
      const after = ofType(csr, type);
      if (after.length > before.length) errs.push(fieldError.forbidden('status.conditions', `updates may not add a condition of type "${type}"`));
      else if (after.length === before.length && JSON.stringify(after) !== JSON.stringify(before)) {
        errs.push(fieldError.forbidden('status.conditions', `updates may not modify a condition of type "${type}"`));
      }
    }
  }
  if (!sameCertificate(csr, old)) {
    if (!o.allowSettingCertificate) errs.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    else if ((bytesField(old.status?.certificate)?.length ?? 0) > 0) {
      errs.push(fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}

function setConditions(csr: CsrObject, list: CsrCondition[]): void {
  const status = (csr.status ??= {});
  if (list.length === 0) delete status.conditions;
  else status.conditions = list;
}

/** populateConditionTimestamps: unset times become now, a transition time stays the stored one for the same status. */
function fillTimestamps(csr: CsrObject, old: CsrObject): void {
  const now = nowTimestamp();
  for (const c of csrConditions(csr)) {
    if (c.lastUpdateTime === undefined || c.lastUpdateTime === null) c.lastUpdateTime = now;
    if (c.lastTransitionTime === undefined || c.lastTransitionTime === null) {
      const prev = csrConditions(old).find((p) => p.type === c.type && p.status === c.status && p.lastTransitionTime != null);
      c.lastTransitionTime = prev?.lastTransitionTime ?? now;
    }
  }
}

/** preserveConditionInstances: the stored instances of `type` replace the new ones when there are as many. */
function preserveConditionInstances(csr: CsrObject, old: CsrObject, type: string): void {
  const next = csrConditions(csr);
  const before = csrConditions(old).filter((c) => c.type === type);
  const at = next.map((c, i) => (c.type === type ? i : -1)).filter((i) => i >= 0);
  if (at.length !== before.length) return;
  at.forEach((index, i) => {
    next[index] = structuredClone(before[i]!);
  });
  setConditions(csr, next);
}

/** The requester recorded on create (kube's PrepareForCreate). */
function recordRequester(csr: CsrObject, user: UserInfo | undefined): void {
  const spec = (csr.spec ??= {});
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user === undefined) return;
  if (user.username !== '') spec.username = user.username;
  if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) {
    spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  }
}

/** The certificatesigningrequest strategy of a flavour (the legacy signer's name is the flavour's). */
export function certificateSigningRequestStrategy(names: Names): Strategy {
  const legacySigner = names.name('signerLegacyUnknown');
  const withOptions = (csr: KubeObject, old: KubeObject, extra: Partial<ValidationOptions>): FieldError[] =>
    validateCsrUpdate(csr as CsrObject, old as CsrObject, { ...validationOptions(csr as CsrObject, old as CsrObject, legacySigner), ...extra }, legacySigner);

  /** `status`: everything but status kept; the stored approval conditions kept in place (adding one is refused). */
  const statusStrategy: SubresourceStrategy = {
    prepareForUpdate(object, old) {
      genericStatusStrategy.prepareForUpdate(object, old);
      for (const type of approvalTypes) preserveConditionInstances(object as CsrObject, old as CsrObject, type);
      fillTimestamps(object as CsrObject, old as CsrObject);
    },
    validateUpdate: (object, old) => withOptions(object, old, { allowSettingCertificate: true }),
  };

  /** `approval`: only the conditions change; the certificate stays. */
  const approvalStrategy: SubresourceStrategy = {
    prepareForUpdate(object, old) {
      fillTimestamps(object as CsrObject, old as CsrObject);
      const conditions = csrConditions(object as CsrObject);
      genericStatusStrategy.prepareForUpdate(object, old);
      keepField(object, old, 'status');
      setConditions(object as CsrObject, conditions);
    },
    validateUpdate: (object, old) => withOptions(object, old, { allowSettingApprovalConditions: true }),
  };

  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    nameRule: 'pathSegment',
    prepareForCreate: (object, user) => recordRequester(object as CsrObject, user),
    prepareForUpdate: (object, old) => keepField(object, old, 'spec'),
    validate: (object) => validateCsr(object as CsrObject, validationOptions(object as CsrObject, undefined, legacySigner), legacySigner),
    validateUpdate: (object, old) => withOptions(object, old, {}),
    status: statusStrategy,
    subresources: { approval: approvalStrategy },
  });
}
