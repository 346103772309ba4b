/**
 * CSIDrivers (pkg/registry/storage/csidriver; pkg/apis/storage/validation; storage/v1 defaults): SetDefaults_CSIDriver
 * (attach required, no pod info on mount, the ReadWriteOnceWithFSType fsGroup policy, Persistent volumes, no
 * republish, no capacity tracking), known fsGroup policies and lifecycle modes, `attachRequired`, `podInfoOnMount`,
 * `volumeLifecycleModes` and `fsGroupPolicy` immutable (1.27: `requiresRepublish` may change; attachRequired's error
 * at kube's misspelt `spec.attachedRequired`); token requests with
 * distinct audiences and expirations from 10 minutes to 2^32 seconds; `seLinuxMount` dropped while
 * SELinuxMountReadWriteOncePod is off (its 1.27 default) unless stored, defaulted to false and required while it is
 * on; an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { immutable, setDefault, specOf } from './pod-spec.js';
import { isSet, objects, text } from './field-checks.js';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Ephemeral', 'Persistent'];

/** The strategy's dropDisabledFields: `seLinuxMount` stays only while its gate is on or the stored object has it. */
function dropDisabledCsiDriverFields(object: KubeObject, old: KubeObject | undefined, gates: FeatureGates): void {
  if (!gates.SELinuxMountReadWriteOncePod && !isSet(record(old?.['spec'])?.['seLinuxMount'])) delete specOf(object)['seLinuxMount'];
}

/** SetDefaults_CSIDriver. */
function defaultCsiDriver(object: KubeObject, gates: FeatureGates): void {
  const spec = specOf(object);
  if (gates.SELinuxMountReadWriteOncePod) setDefault(spec, 'seLinuxMount', false);
  setDefault(spec, 'attachRequired', true);
  setDefault(spec, 'podInfoOnMount', false);
  setDefault(spec, 'storageCapacity', false);
  setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec['volumeLifecycleModes']) || spec['volumeLifecycleModes'].length === 0) spec['volumeLifecycleModes'] = ['Persistent'];
  setDefault(spec, 'requiresRepublish', false);
}

/** validateTokenRequests. */
function tokenRequestErrors(requests: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  objects(requests).forEach((r, i) => {
    const path = `spec.tokenRequests[${i}]`;
    const audience = text(r['audience']);
    if (audiences.has(audience)) errs.push(fieldError.duplicate(`${path}.audience`, audience));
    audiences.add(audience);
    const seconds = r['expirationSeconds'];
    if (typeof seconds === 'number') {
      if (seconds < 600) errs.push(fieldError.invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(fieldError.invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
    }
  });
  return errs;
}

function validateCsiDriver(object: KubeObject, gates: FeatureGates): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = tokenRequestErrors(spec['tokenRequests']);
  if (gates.SELinuxMountReadWriteOncePod && !isSet(spec['seLinuxMount'])) errs.push(fieldError.required('spec.seLinuxMount'));
  const policy = spec['fsGroupPolicy'];
  if (policy !== undefined && !fsGroupPolicies.includes(String(policy))) errs.push(fieldError.notSupported('spec.fsGroupPolicy', policy, fsGroupPolicies));
  for (const mode of Array.isArray(spec['volumeLifecycleModes']) ? spec['volumeLifecycleModes'] : []) {
    if (!lifecycleModes.includes(String(mode))) errs.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, lifecycleModes));
  }
  return errs;
}

/** The csidriver strategy under the server's gates. */
export function csiDriverStrategy(_names?: unknown, gates: FeatureGates = defaultFeatureGates): Strategy {
  return defineStrategy({
    allowUnconditionalUpdate: false,
    defaults: (object) => defaultCsiDriver(object, gates),
    prepareForCreate: (object) => dropDisabledCsiDriverFields(object, undefined, gates),
    prepareForUpdate: (object, old) => dropDisabledCsiDriverFields(object, old, gates),
    validate: (object) => validateCsiDriver(object, gates),
    validateUpdate(object, old) {
      const spec = record(object['spec']) ?? {};
      const before = record(old['spec']) ?? {};
      return [
        ...validateCsiDriver(object, gates),
        // kube reports attachRequired at `spec.attachedRequired`.
        ...immutable('spec.attachedRequired', spec['attachRequired'], before['attachRequired']),
        ...immutable('spec.podInfoOnMount', spec['podInfoOnMount'], before['podInfoOnMount']),
        ...immutable('spec.volumeLifecycleModes', spec['volumeLifecycleModes'], before['volumeLifecycleModes']),
        ...immutable('spec.fsGroupPolicy', spec['fsGroupPolicy'], before['fsGroupPolicy']),
      ];
    },
  });
}
