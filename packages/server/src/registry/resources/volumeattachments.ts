/**
 * VolumeAttachments (pkg/registry/storage/volumeattachment, storage/v1; ValidateVolumeAttachment,
 * ValidateVolumeAttachmentV1 and ValidateVolumeAttachmentUpdate of 1.27, rule by rule): an attacher (on create also
 * a CSI driver name), exactly one source (a non-empty, DNS-subdomain persistent volume name on create), a node name
 * that is a DNS subdomain (an empty one fails that check, as kube words it), attachment metadata of at most 256 KiB
 * and error messages of at most 1024 bytes; the spec immutable. `status` is the attacher's (reset on create to
 * `attached: false`, as kube encodes it, kept by updates, written through `/status`, which validates the whole
 * object again), and an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dns1123Subdomain, isSet, obj, text, type Json } from './field-checks.js';
import { sameJson } from './object-fields.js';
import { csiDriverNameErrors } from './volume-sources.js';

/** maxAttachedVolumeMetadataSize and maxVolumeErrorMessageSize. */
const maxMetadataSize = 256 * 1024;
const maxErrorMessageSize = 1024;
const oneSource = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

/** validateVolumeAttachmentSource. */
function sourceErrors(source: Json): FieldError[] {
  const pv = isSet(source['persistentVolumeName']);
  const inline = isSet(source['inlineVolumeSpec']);
  if (!pv && !inline) return [fieldError.required('spec.source', oneSource)];
  if (pv && inline) return [fieldError.forbidden('spec.source', oneSource)];
  if (pv && text(source['persistentVolumeName']) === '') return [fieldError.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName')];
  return [];
}

/** validateVolumeAttachmentStatus. */
function statusErrors(status: Json): FieldError[] {
  const errs: FieldError[] = [];
  const metadata = obj(status['attachmentMetadata']);
  const size = Object.entries(metadata).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(text(v)), 0);
  if (size > maxMetadataSize) errs.push(fieldError.tooLong('status.attachmentMetadata', maxMetadataSize));
  for (const key of ['attachError', 'detachError']) {
    // kube words the limit with the metadata size, though it checks the message against 1024 bytes.
    if (Buffer.byteLength(text(obj(status[key])['message'])) > maxErrorMessageSize) errs.push(fieldError.tooLong(`status.${key}.message`, maxMetadataSize));
  }
  return errs;
}

/** ValidateVolumeAttachment. */
function validateAttachment(object: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  const errs: FieldError[] = [];
  if (text(spec['attacher']) === '') errs.push(fieldError.required('spec.attacher'));
  errs.push(...sourceErrors(obj(spec['source'])));
  errs.push(...dns1123Subdomain(text(spec['nodeName']), 'spec.nodeName'));
  return [...errs, ...statusErrors(obj(object['status']))];
}

/** ValidateVolumeAttachmentV1: what a create through v1 checks besides. */
function validateAttachmentV1(object: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  const errs = csiDriverNameErrors(text(spec['attacher']), 'spec.attacher');
  const source = obj(spec['source']);
  if (isSet(source['persistentVolumeName'])) {
    const name = text(source['persistentVolumeName']);
    for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid('spec.source.persistentVolumeName', name, msg));
  }
  return errs;
}

/** ValidateVolumeAttachmentUpdate. */
function validateAttachmentUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateAttachment(object);
  return sameJson(object['spec'], old['spec']) ? errs : [...errs, fieldError.invalid('spec', object['spec'], 'field is immutable')];
}

/** The volumeattachment strategy. */
export function volumeAttachmentStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    allowUnconditionalUpdate: false,
    initialStatus: () => ({ attached: false }),
    validate: (object) => [...validateAttachment(object), ...validateAttachmentV1(object)],
    validateUpdate: validateAttachmentUpdate,
    status: { prepareForUpdate: genericStatusStrategy.prepareForUpdate, validateUpdate: validateAttachmentUpdate },
  });
}
