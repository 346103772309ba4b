/**
 * VolumeAttachments (pkg/registry/storage/volumeattachment, storage.svc.io/v1; ValidateVolumeAttachment and its
 * update): an attacher, a DNS-subdomain node name and exactly one source, the spec immutable. `status` is the
 * attacher's (reset on create to `attached: false`, as kube encodes it, kept by updates, written through
 * `/status`), and an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';

function validateAttachment(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const attacher = typeof spec['attacher'] === 'string' ? spec['attacher'] : '';
  if (attacher === '') errs.push(fieldError.required('spec.attacher'));
  const source = record(spec['source']) ?? {};
  const sources = ['persistentVolumeName', 'inlineVolumeSpec'].filter((k) => source[k] !== undefined && source[k] !== null);
  if (sources.length !== 1) errs.push(fieldError.invalid('spec.source', source, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  const node = typeof spec['nodeName'] === 'string' ? spec['nodeName'] : '';
  if (node === '') errs.push(fieldError.required('spec.nodeName'));
  else for (const msg of isDns1123Subdomain(node)) errs.push(fieldError.invalid('spec.nodeName', node, msg));
  return errs;
}

/** The volumeattachment strategy. */
export function volumeAttachmentStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    allowUnconditionalUpdate: false,
    initialStatus: () => ({ attached: false }),
    validate: validateAttachment,
    validateUpdate(object, old) {
      const errs = validateAttachment(object);
      const same = JSON.stringify(object['spec']) === JSON.stringify(old['spec']) || immutable('spec', object['spec'], old['spec']).length === 0;
      return same ? errs : [...errs, fieldError.invalid('spec', object['spec'], 'field is immutable')];
    },
  });
}
