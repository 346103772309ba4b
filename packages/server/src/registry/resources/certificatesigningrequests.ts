/**
 * CertificateSigningRequests (pkg/registry/certificates/certificates): the spec is fixed after create; approval
 * conditions (`Approved`, `Denied`) are written only through the `approval` subresource and every other condition
 * and the issued certificate only through `status` — each write keeps the other's part from the stored object.
 * Approval validation: `Approved` and `Denied` exclude each other, approval conditions have status `True`, may not
 * be removed once set and appear once; condition timestamps are filled when unset.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { genericStatusStrategy, keepField } from '../default-strategy.js';
import { defineStrategy } from '../default-strategy.js';
import { nowTimestamp } from '../operations/prepare.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { record } from '../conversion/resource-conversion.js';

type Condition = Record<string, unknown>;
const approvalTypes: ReadonlySet<string> = new Set(['Approved', 'Denied']);

function conditions(object: KubeObject): Condition[] {
  const list = record(object.status)?.['conditions'];
  return (Array.isArray(list) ? list : []).map((c) => record(c) ?? {});
}

function setConditions(object: KubeObject, list: Condition[]): void {
  const status = (object.status ??= {}) as Record<string, unknown>;
  if (list.length === 0) delete status['conditions'];
  else status['conditions'] = list;
}

const isApproval = (c: Condition): boolean => approvalTypes.has(String(c['type']));

/** populateConditionTimestamps: unset times become now, or stay the stored ones for an unchanged condition. */
function fillTimestamps(object: KubeObject, old: KubeObject | undefined): void {
  const now = nowTimestamp();
  const before = new Map((old ? conditions(old) : []).map((c) => [String(c['type']), c]));
  for (const c of conditions(object)) {
    c['lastUpdateTime'] ??= now;
    if (c['lastTransitionTime'] === undefined) {
      const prev = before.get(String(c['type']));
      c['lastTransitionTime'] = prev !== undefined && prev['status'] === c['status'] && prev['lastTransitionTime'] !== undefined ? prev['lastTransitionTime'] : now;
    }
  }
}

/** Conditions: types present, once each; approval ones `True`, not both; none of `old`'s approval ones dropped. */
export function validateConditions(object: KubeObject, old: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const list = conditions(object);
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const type = c['type'];
    const path = `status.conditions[${i}]`;
    if (typeof type !== 'string' || type === '') {
      errs.push(fieldError.required(`${path}.type`));
      return;
    }
    if (seen.has(type) && (isApproval(c) || type === 'Failed')) errs.push(fieldError.duplicate(`${path}.type`, type));
    seen.add(type);
    if (isApproval(c) && c['status'] !== 'True') errs.push(fieldError.notSupported(`${path}.status`, c['status'] ?? '', ['True']));
    else if (!['True', 'False', 'Unknown'].includes(String(c['status']))) errs.push(fieldError.notSupported(`${path}.status`, c['status'] ?? '', ['False', 'True', 'Unknown']));
  });
  if (seen.has('Approved') && seen.has('Denied')) errs.push(fieldError.invalid('status.conditions', 'Denied', 'Approved and Denied conditions are mutually exclusive'));
  for (const c of old ? conditions(old) : []) {
    if (isApproval(c) && !seen.has(String(c['type']))) errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type "${String(c['type'])}"`));
  }
  return errs;
}

/** The `status` subresource: everything but status kept; approval conditions kept from the stored object. */
const statusStrategy: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    genericStatusStrategy.prepareForUpdate(object, old);
    setConditions(object, [...conditions(object).filter((c) => !isApproval(c)), ...conditions(old).filter(isApproval)]);
    fillTimestamps(object, old);
  },
  validateUpdate: (object, old) => validateConditions(object, old),
};

/** The `approval` subresource: only approval conditions change; the certificate and other conditions stay. */
const approvalStrategy: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    genericStatusStrategy.prepareForUpdate(object, old);
    setConditions(object, [...conditions(object).filter(isApproval), ...conditions(old).filter((c) => !isApproval(c))]);
    const status = (object.status ??= {}) as Record<string, unknown>;
    const oldCertificate = record(old.status)?.['certificate'];
    if (oldCertificate === undefined) delete status['certificate'];
    else status['certificate'] = oldCertificate;
    fillTimestamps(object, old);
  },
  validateUpdate: (object, old) => validateConditions(object, old),
};

/** The certificatesigningrequest strategy. */
export function certificateSigningRequestStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    nameRule: 'pathSegment',
    prepareForUpdate: (object, old) => keepField(object, old, 'spec'),
    validate(object) {
      const spec = record(object['spec']) ?? {};
      const errs: FieldError[] = [];
      if (typeof spec['request'] !== 'string' || spec['request'] === '') errs.push(fieldError.required('spec.request'));
      if (typeof spec['signerName'] !== 'string' || spec['signerName'] === '') errs.push(fieldError.required('spec.signerName'));
      const seconds = spec['expirationSeconds'];
      if (typeof seconds === 'number' && seconds < 600) errs.push(fieldError.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
      return errs;
    },
    status: statusStrategy,
    subresources: { approval: approvalStrategy },
  });
}
