/**
 * CSINodes (pkg/registry/storage/csinode and ValidateCSINode/ValidateCSINodeUpdate of 1.27, rule by rule): named as
 * nodes; drivers named as CSI drivers (ValidateCSIDriverName), unique, with a node ID of at most 256 characters
 * (1.27's strategy always allows the longer IDs), a non-negative allocatable count and unique qualified topology
 * keys; an update may add and remove drivers but not change one it keeps (reported at kube's `CSINodeDriver`
 * path), and must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isQualifiedName } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { isSet, list, nonNegative, obj, objects, text, type Json } from './field-checks.js';
import { sameJson } from './object-fields.js';
import { csiDriverNameErrors } from './volume-sources.js';

/** csiNodeIDLongerMaxLength. */
const maxNodeIdLength = 256;

/** validateCSINodeDriver. */
function driverErrors(driver: Json, at: string, seen: Set<string>): FieldError[] {
  const name = text(driver['name']);
  const errs = csiDriverNameErrors(name, `${at}.name`);
  const nodeId = text(driver['nodeID']);
  if (nodeId === '') errs.push(fieldError.required(`${at}.nodeID`));
  if (nodeId.length > maxNodeIdLength) errs.push(fieldError.invalid(`${at}.nodeID`, nodeId, `must be ${maxNodeIdLength} characters or less`));
  const allocatable = obj(driver['allocatable']);
  if (isSet(allocatable['count'])) errs.push(...nonNegative(allocatable['count'], `${at}.allocatable.count`));
  if (seen.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
  const keys = new Set<string>();
  for (const raw of list(driver['topologyKeys'])) {
    const key = text(raw);
    if (key === '') errs.push(fieldError.required(at));
    if (keys.has(key)) errs.push(fieldError.duplicate(at, key));
    keys.add(key);
    for (const msg of isQualifiedName(key)) errs.push(fieldError.invalid(at, driver['topologyKeys'], msg));
  }
  seen.add(name);
  return errs;
}

/** ValidateCSINode's spec part. */
function validateCsiNode(object: KubeObject): FieldError[] {
  const seen = new Set<string>();
  return objects(obj(object['spec'])['drivers']).flatMap((d, i) => driverErrors(d, `spec.drivers[${i}]`, seen));
}

/** ValidateCSINodeUpdate: a driver kept by name is unchanged. */
function validateCsiNodeUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCsiNode(object);
  const drivers = objects(obj(object['spec'])['drivers']);
  for (const before of objects(obj(old['spec'])['drivers'])) {
    for (const now of drivers) {
      if (text(now['name']) === text(before['name']) && !sameJson(now, before)) errs.push(fieldError.invalid('CSINodeDriver', now, 'field is immutable'));
    }
  }
  return errs;
}

/** The csinode strategy. */
export function csiNodeStrategy(): Strategy {
  return defineStrategy({ allowUnconditionalUpdate: false, validate: validateCsiNode, validateUpdate: validateCsiNodeUpdate });
}
