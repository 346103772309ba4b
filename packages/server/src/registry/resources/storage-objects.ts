/**
 * storage/v1 CSIDrivers, CSINodes, CSIStorageCapacities and VolumeAttachments (pkg/registry/storage/*;
 * pkg/apis/storage/validation; storage/v1 defaults): CSIDriver defaults (attach required, no pod info on mount,
 * the ReadWriteOnceWithFSType fsGroup policy, Persistent volumes, no republish, no capacity tracking) with
 * `attachRequired`, `podInfoOnMount` (1.27: `requiresRepublish` may change) immutable; CSINode drivers named as CSI
 * drivers with node IDs; a capacity's storage class immutable; a VolumeAttachment's spec (attacher, node, one
 * source) immutable.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable, setDefault, specOf } from './pod-spec.js';
import { quantityValue } from './quantity.js';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Ephemeral', 'Persistent'];

/** SetDefaults_CSIDriver. */
function defaultCsiDriver(object: KubeObject): void {
  const spec = specOf(object);
  setDefault(spec, 'attachRequired', true);
  setDefault(spec, 'podInfoOnMount', false);
  setDefault(spec, 'storageCapacity', false);
  setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec['volumeLifecycleModes']) || spec['volumeLifecycleModes'].length === 0) spec['volumeLifecycleModes'] = ['Persistent'];
  setDefault(spec, 'requiresRepublish', false);
}

function validateCsiDriver(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const policy = spec['fsGroupPolicy'];
  if (policy !== undefined && !fsGroupPolicies.includes(String(policy))) errs.push(fieldError.notSupported('spec.fsGroupPolicy', policy, fsGroupPolicies));
  for (const mode of Array.isArray(spec['volumeLifecycleModes']) ? spec['volumeLifecycleModes'] : []) {
    if (!lifecycleModes.includes(String(mode))) errs.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, lifecycleModes));
  }
  return errs;
}

/** The csidriver strategy. */
export function csiDriverStrategy(): Strategy {
  return defineStrategy({
    prepareForCreate: defaultCsiDriver,
    prepareForUpdate: defaultCsiDriver,
    validate: validateCsiDriver,
    validateUpdate(object, old) {
      const spec = record(object['spec']) ?? {};
      const before = record(old['spec']) ?? {};
      return [
        ...validateCsiDriver(object),
        ...immutable('spec.attachRequired', spec['attachRequired'], before['attachRequired']),
        ...immutable('spec.podInfoOnMount', spec['podInfoOnMount'], before['podInfoOnMount']),
        ...immutable('spec.volumeLifecycleModes', spec['volumeLifecycleModes'], before['volumeLifecycleModes']),
        ...immutable('spec.fsGroupPolicy', spec['fsGroupPolicy'], before['fsGroupPolicy']),
      ];
    },
  });
}

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
  return defineStrategy({ validate: validateCsiNode, validateUpdate: validateCsiNode });
}

function validateCapacity(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const className = typeof object['storageClassName'] === 'string' ? object['storageClassName'] : '';
  if (className === '') errs.push(fieldError.required('storageClassName'));
  else for (const msg of isDns1123Subdomain(className)) errs.push(fieldError.invalid('storageClassName', className, msg));
  for (const key of ['capacity', 'maximumVolumeSize']) {
    const q = object[key];
    if (q === undefined || q === null) continue;
    const v = quantityValue(q);
    if (v === undefined || v < 0) errs.push(fieldError.invalid(key, q, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** The csistoragecapacity strategy. */
export function csiStorageCapacityStrategy(): Strategy {
  return defineStrategy({
    validate: validateCapacity,
    validateUpdate: (object, old) => [
      ...validateCapacity(object),
      ...immutable('nodeTopology', object['nodeTopology'], old['nodeTopology']),
      ...immutable('storageClassName', object['storageClassName'], old['storageClassName']),
    ],
  });
}

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

/** The volumeattachment strategy (status subresource; the spec is immutable). */
export function volumeAttachmentStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({ attached: false }),
    validate: validateAttachment,
    validateUpdate(object, old) {
      const errs = validateAttachment(object);
      const same = JSON.stringify(object['spec']) === JSON.stringify(old['spec']) || immutable('spec', object['spec'], old['spec']).length === 0;
      return same ? errs : [...errs, fieldError.invalid('spec', object['spec'], 'field is immutable')];
    },
  });
}
