/**
 * LimitRanges (pkg/registry/core/limitrange; ValidateLimitRange): created by PUT as well; each limit has a
 * standard or qualified type, used once; quantities are valid; `min` is not above `max`; a Pod limit has no
 * `default` or `defaultRequest`.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { quantityValue } from './quantity.js';

const standardTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

function validateLimitRange(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const limits = record(object['spec'])?.['limits'];
  (Array.isArray(limits) ? limits : []).forEach((raw, i) => {
    const limit = record(raw) ?? {};
    const at = `spec.limits[${i}]`;
    const type = typeof limit['type'] === 'string' ? limit['type'] : '';
    const typeErrs = isQualifiedName(type).map((msg) => fieldError.invalid(`${at}.type`, type, msg));
    if (typeErrs.length === 0 && !type.includes('/') && !standardTypes.includes(type)) typeErrs.push(fieldError.invalid(`${at}.type`, type, 'must be a standard limit type or fully qualified'));
    errs.push(...typeErrs);
    if (seen.has(type)) errs.push(fieldError.duplicate(`${at}.type`, type));
    seen.add(type);
    for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
      for (const [name, q] of Object.entries(record(limit[key]) ?? {})) {
        const v = quantityValue(q);
        if (v === undefined || v < 0) errs.push(fieldError.invalid(`${at}.${key}[${name}]`, q, 'must be greater than or equal to 0'));
      }
    }
    if (type === 'Pod') {
      if (Object.keys(record(limit['default']) ?? {}).length > 0) errs.push(fieldError.forbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(record(limit['defaultRequest']) ?? {}).length > 0) errs.push(fieldError.forbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    }
    const max = record(limit['max']) ?? {};
    for (const [name, q] of Object.entries(record(limit['min']) ?? {})) {
      const lo = quantityValue(q);
      const hi = quantityValue(max[name]);
      if (lo !== undefined && hi !== undefined && lo > hi) {
        errs.push(fieldError.invalid(`${at}.min[${name}]`, q, `min value ${String(q)} is greater than max value ${String(max[name])}`));
      }
    }
  });
  return errs;
}

/** The limitrange strategy. */
export function limitRangeStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true, validate: validateLimitRange, validateUpdate: validateLimitRange });
}
