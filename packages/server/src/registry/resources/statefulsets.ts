/**
 * apps/v1 StatefulSets (pkg/registry/apps/statefulset, ValidateStatefulSetSpec and ValidateStatefulSetUpdate, apps/v1
 * defaults, 1.27): names are DNS labels (they name the pods' hostnames); `replicas` 1, `podManagementPolicy`
 * OrderedReady, `updateStrategy` RollingUpdate with `partition` 0, `revisionHistoryLimit` 10, the PVC retention
 * policy Retain (StatefulSetAutoDeletePVC), each volume claim template defaulted as a claim (SetDefaults_PersistentVolumeClaim
 * and its spec's defaults run on the nested claims too: `volumeMode` Filesystem, `status.phase` Pending); the
 * template's labels and annotations checked but not its pod spec (the controller's pods are validated as pods, so a
 * container may mount a claim template by name); the fields of disabled gates dropped (the retention policy,
 * `rollingUpdate.maxUnavailable` of MaxUnavailableStatefulSet, `ordinals` of StatefulSetStartOrdinal), and the rule
 * that only replicas, template, updateStrategy, minReadySeconds, persistentVolumeClaimRetentionPolicy and ordinals
 * change; warnings for the claim templates' fractional storage values.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import type { Strategy } from '../strategy.js';
import { record } from '../conversion/resource-conversion.js';
import { claimSpecWarnings, defaultPersistentVolumeClaim } from './persistentvolumeclaims.js';
import { intOrPercentValue, notMoreThan100Percent, positiveIntOrPercent } from './deployments.js';
import { isSet, obj, objects, text, type Json } from './field-checks.js';
import { child, sameJson, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

const updatable = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy', 'ordinals'];

function fixedPart(spec: Json): Json {
  return Object.fromEntries(Object.entries(spec).filter(([k]) => !updatable.includes(k)));
}

/** validateRollingUpdateStatefulSet. */
function rollingUpdateErrors(rolling: Json, path: string): FieldError[] {
  const errs = nonNegative(rolling, 'partition', `${path}.partition`);
  const maxUnavailable = rolling['maxUnavailable'];
  if (isSet(maxUnavailable)) {
    errs.push(...positiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`));
    if (intOrPercentValue(maxUnavailable) === 0) errs.push(fieldError.invalid(`${path}.maxUnavailable`, maxUnavailable, 'cannot be 0'));
    errs.push(...notMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`));
  }
  return errs;
}

/** ValidateStatefulSetSpec beyond the shared selector and template rules. */
function validateStatefulSetSpec(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const policy = text(spec['podManagementPolicy']);
  if (policy === '') errs.push(fieldError.required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(fieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  const update = obj(spec['updateStrategy']);
  const type = text(update['type']);
  if (type === '') errs.push(fieldError.required('spec.updateStrategy'));
  else if (type === 'OnDelete') {
    if (isSet(update['rollingUpdate'])) errs.push(fieldError.invalid('spec.updateStrategy.rollingUpdate', update['rollingUpdate'], "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (type === 'RollingUpdate') {
    if (isSet(update['rollingUpdate'])) errs.push(...rollingUpdateErrors(obj(update['rollingUpdate']), 'spec.updateStrategy.rollingUpdate'));
  } else {
    errs.push(fieldError.invalid('spec.updateStrategy', update, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const retention = record(spec['persistentVolumeClaimRetentionPolicy']);
  if (retention !== undefined) {
    for (const key of ['whenDeleted', 'whenScaled']) {
      const value = text(retention[key]);
      if (value !== 'Retain' && value !== 'Delete') errs.push(fieldError.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${key}`, value, ['Retain', 'Delete']));
    }
  }
  errs.push(...nonNegative(spec, 'replicas', 'spec.replicas'), ...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds'));
  if (isSet(spec['ordinals'])) errs.push(...nonNegative(obj(spec['ordinals']), 'start', 'spec.ordinals.start'));
  return errs;
}

/** GetWarningsForStatefulSet's claim template part: fractional storage values. */
function claimTemplateWarnings(object: KubeObject): string[] {
  return objects(obj(object['spec'])['volumeClaimTemplates']).flatMap((claim, i) => claimSpecWarnings(obj(claim['spec']), `spec.volumeClaimTemplates[${i}].spec`));
}

/** The statefulset strategy of a flavour under the server's gates. */
export function statefulSetStrategy(names: Names, gates?: FeatureGates): Strategy {
  return workloadStrategy({
    kind: 'StatefulSet',
    names,
    ...(gates === undefined ? {} : { gates }),
    initialStatus: () => ({ replicas: 0, availableReplicas: 0 }),
    validate: (object) => validateStatefulSetSpec(obj(object['spec'])),
    warnings: claimTemplateWarnings,
    drop(spec, old, on) {
      if (!on.StatefulSetAutoDeletePVC && !isSet(old?.['persistentVolumeClaimRetentionPolicy'])) delete spec['persistentVolumeClaimRetentionPolicy'];
      const oldMaxUnavailable = obj(obj(old?.['updateStrategy'])['rollingUpdate'])['maxUnavailable'];
      const rolling = record(obj(spec['updateStrategy'])['rollingUpdate']);
      if (!on.MaxUnavailableStatefulSet && !isSet(oldMaxUnavailable) && rolling !== undefined) delete rolling['maxUnavailable'];
      if (!on.StatefulSetStartOrdinal && !isSet(old?.['ordinals'])) delete spec['ordinals'];
    },
    defaults(spec) {
      setDefault(spec, 'replicas', 1);
      setDefault(spec, 'podManagementPolicy', 'OrderedReady');
      const update = child(spec, 'updateStrategy');
      setDefault(update, 'type', 'RollingUpdate');
      if (update['type'] === 'RollingUpdate') setDefault(child(update, 'rollingUpdate'), 'partition', 0);
      setDefault(spec, 'revisionHistoryLimit', 10);
      if ((gates?.StatefulSetAutoDeletePVC ?? true)) {
        const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
        setDefault(retention, 'whenDeleted', 'Retain');
        setDefault(retention, 'whenScaled', 'Retain');
      }
      for (const raw of Array.isArray(spec['volumeClaimTemplates']) ? spec['volumeClaimTemplates'] : []) {
        const claim = record(raw);
        if (claim === undefined) continue;
        defaultPersistentVolumeClaim(claim);
        setDefault(child(claim, 'status'), 'phase', 'Pending');
      }
    },
    validateUpdate(object, old): FieldError[] {
      if (sameJson(fixedPart(obj(object['spec'])), fixedPart(obj(old['spec'])))) return [];
      return [fieldError.forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
    },
  });
}
