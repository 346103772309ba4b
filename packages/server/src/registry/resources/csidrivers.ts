/**
 * CSIDrivers (pkg/registry/storage/csidriver; pkg/apis/storage/validation; storage/v1 defaults): SetDefaults_CSIDriver
 * (attach required, no pod info on mount, the ReadWriteOnceWithFSType fsGroup policy, Persistent volumes, no
 * republish, no capacity tracking), known fsGroup policies and lifecycle modes, `attachRequired`, `podInfoOnMount`,
 * `volumeLifecycleModes` and `fsGroupPolicy` immutable (1.27: `requiresRepublish` may change); an update must name
 * the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable, setDefault, specOf } from './pod-spec.js';

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
    allowUnconditionalUpdate: false,
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
