/**
 * The `ephemeralcontainers` subresource of pods (kube's EphemeralContainersREST and podEphemeralContainersStrategy):
 * a write changes `spec.ephemeralContainers` only; containers already there may not change or go away
 * (ValidatePodEphemeralContainersUpdate), new ones need a unique name and an image, set none of the fields an
 * ephemeral container may not have (ports, probes, lifecycle, resources, subPath mounts), target an existing
 * container, and take the container defaults.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { keepField } from '../default-strategy.js';
import type { SubresourceStrategy } from '../strategy.js';
import { record } from '../conversion/resource-conversion.js';
import { defaultPodSpec, sameJson, specOf } from './pod-spec.js';
import { isDns1123Label } from '../../meta/name-rules.js';

function ephemeral(object: KubeObject): Record<string, unknown>[] {
  const list = specOf(object)['ephemeralContainers'];
  return (Array.isArray(list) ? list : []).map((c) => record(c) ?? {});
}

/** The ephemeral containers strategy. */
export const ephemeralContainersStrategy: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    const wanted = specOf(object)['ephemeralContainers'];
    for (const field of new Set([...Object.keys(object), ...Object.keys(old)])) {
      if (field === 'metadata' || field === 'kind' || field === 'apiVersion') continue;
      keepField(object, old, field);
    }
    const spec = specOf(object);
    if (wanted === undefined) delete spec['ephemeralContainers'];
    else spec['ephemeralContainers'] = wanted;
    // Only the new containers take defaults; the old ones are compared as stored.
    const probe = { ephemeralContainers: spec['ephemeralContainers'] };
    defaultPodSpec(probe);
  },
  validateUpdate(object, old) {
    const errs: FieldError[] = [];
    const now = ephemeral(object);
    const before = ephemeral(old);
    const byName = new Map(now.map((c) => [String(c['name'] ?? ''), c]));
    for (const c of before) {
      const name = String(c['name'] ?? '');
      const current = byName.get(name);
      if (current === undefined || !sameJson(current, c)) {
        errs.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers "${name}" may not be changed`));
      }
    }
    const seen = new Set<string>();
    const others = new Set<string>();
    const spec = specOf(object);
    for (const key of ['containers', 'initContainers']) {
      for (const c of Array.isArray(spec[key]) ? spec[key] : []) others.add(String(record(c)?.['name'] ?? ''));
    }
    now.forEach((c, i) => {
      const path = `spec.ephemeralContainers[${i}]`;
      const name = c['name'];
      if (typeof name !== 'string' || name === '') errs.push(fieldError.required(`${path}.name`));
      else if (isDns1123Label(name).length > 0) errs.push(fieldError.invalid(`${path}.name`, name, isDns1123Label(name).join('; ')));
      else if (seen.has(name) || others.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      if (typeof name === 'string') seen.add(name);
      if (typeof c['image'] !== 'string' || c['image'] === '') errs.push(fieldError.required(`${path}.image`));
      for (const forbiddenField of ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy']) {
        if (c[forbiddenField] !== undefined) errs.push(fieldError.forbidden(`${path}.${forbiddenField}`, 'cannot be set for an Ephemeral Container'));
      }
      // resources is a struct kube always carries: only a non-empty one is set.
      const resources = record(c['resources']);
      if (resources !== undefined && Object.values(resources).some((v) => Object.keys(record(v) ?? {}).length > 0)) {
        errs.push(fieldError.forbidden(`${path}.resources`, 'cannot be set for an Ephemeral Container'));
      }
      (Array.isArray(c['volumeMounts']) ? c['volumeMounts'] : []).forEach((m, j) => {
        if (typeof record(m)?.['subPath'] === 'string' && record(m)?.['subPath'] !== '') {
          errs.push(fieldError.forbidden(`${path}.volumeMounts[${j}].subPath`, 'cannot be set for an Ephemeral Container'));
        }
      });
      const target = c['targetContainerName'];
      if (typeof target === 'string' && target !== '' && !others.has(target)) errs.push(fieldError.notFound(`${path}.targetContainerName`, target));
    });
    return errs;
  },
};
