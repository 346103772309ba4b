/**
 * Pods (pkg/registry/core/pod): status subresource, status Pending on create, the field selectors kube serves;
 * validation here is the minimal part (containers with name and image). Defaulting and spec immutability come later.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Label } from '../../meta/name-rules.js';
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

interface Container {
  name?: unknown;
  image?: unknown;
}

function validateContainers(list: unknown, path: string, required: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(list) || list.length === 0) {
    if (required) errs.push(fieldError.required(path));
    return errs;
  }
  const seen = new Set<string>();
  list.forEach((c: Container, i) => {
    const at = `${path}[${i}]`;
    if (typeof c?.name !== 'string' || c.name === '') errs.push(fieldError.required(`${at}.name`));
    else {
      for (const msg of isDns1123Label(c.name)) errs.push(fieldError.invalid(`${at}.name`, c.name, msg));
      if (seen.has(c.name)) errs.push(fieldError.duplicate(`${at}.name`, c.name));
      seen.add(c.name);
    }
    if (typeof c?.image !== 'string' || c.image.trim() === '') errs.push(fieldError.required(`${at}.image`));
  });
  return errs;
}

function validatePod(object: KubeObject): FieldError[] {
  const spec = (object.spec ?? {}) as { containers?: unknown; initContainers?: unknown };
  return [
    ...validateContainers(spec.containers, 'spec.containers', true),
    ...validateContainers(spec.initContainers, 'spec.initContainers', false),
  ];
}

/** The pod strategy. */
export function podStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate(object) {
      object.status = { phase: 'Pending' };
    },
    validate: validatePod,
    validateUpdate: (object) => validatePod(object),
    selectableFields: fieldsAt(
      'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
      'status.phase', 'status.podIP', 'status.nominatedNodeName',
    ),
  });
}
