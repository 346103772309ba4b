/**
 * CSINodes (pkg/registry/storage/csinode; ValidateCSINode and its update): drivers named as CSI drivers (DNS
 * subdomains, unique) with node IDs of at most 192 characters; an update must name the resourceVersion it replaces
 * (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

function validateCsiNode(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const drivers = record(object['spec'])?.['drivers'];
  (Array.isArray(drivers) ? drivers : []).forEach((raw, i) => {
    const d = record(raw) ?? {};
    const at = `spec.drivers[${i}]`;
    const name = typeof d['name'] === 'string' ? d['name'] : '';
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else for (const msg of isDns1123Subdomain(name.toLowerCase())) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    seen.add(name);
    const nodeId = typeof d['nodeID'] === 'string' ? d['nodeID'] : '';
    if (nodeId === '') errs.push(fieldError.required(`${at}.nodeID`));
    else if (nodeId.length > 192) errs.push(fieldError.tooLong(`${at}.nodeID`, 192));
  });
  return errs;
}

/** The csinode strategy. */
export function csiNodeStrategy(): Strategy {
  return defineStrategy({ allowUnconditionalUpdate: false, validate: validateCsiNode, validateUpdate: validateCsiNode });
}
