/**
 * apps/v1 StatefulSets (pkg/registry/apps/statefulset): `replicas` 1, `podManagementPolicy` OrderedReady,
 * `updateStrategy` RollingUpdate with `partition` 0, `revisionHistoryLimit` 10, the PVC retention policy Retain,
 * each volume claim template defaulted as a claim (SetDefaults_PersistentVolumeClaim and its spec's defaults run on
 * the nested claims too: `volumeMode` Filesystem, `status.phase` Pending), and ValidateStatefulSetUpdate's rule that only replicas, template, updateStrategy, minReadySeconds,
 * persistentVolumeClaimRetentionPolicy and ordinals change.
 */
import { fieldError, type FieldError, type Names } from '@svc-apiserver/api';
import type { Strategy } from '../strategy.js';
import { record } from '../conversion/resource-conversion.js';
import { defaultPersistentVolumeClaim } from './persistentvolumeclaims.js';
import { child, sameJson, setDefault } from './pod-spec.js';
import { workloadStrategy } from './workload.js';

const updatable = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy', 'ordinals'];

function fixedPart(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(spec).filter(([k]) => !updatable.includes(k)));
}

/** ValidateStatefulSetSpec's pod management policy and update strategy checks. */
function validateStatefulSetSpec(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec['podManagementPolicy'];
  if (policy === undefined || policy === '') errs.push(fieldError.required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(fieldError.invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  const update = (spec['updateStrategy'] ?? {}) as Record<string, unknown>;
  const type = update['type'];
  if (type === undefined || type === '') errs.push(fieldError.required('spec.updateStrategy'));
  else if (type === 'OnDelete') {
    if (update['rollingUpdate'] !== undefined && update['rollingUpdate'] !== null) {
      errs.push(fieldError.invalid('spec.updateStrategy.rollingUpdate', update['rollingUpdate'], "only allowed for updateStrategy 'RollingUpdate'"));
    }
  } else if (type === 'RollingUpdate') {
    const partition = (update['rollingUpdate'] as Record<string, unknown> | undefined)?.['partition'];
    if (typeof partition === 'number' && partition < 0) errs.push(fieldError.invalid('spec.updateStrategy.rollingUpdate.partition', partition, 'must be greater than or equal to 0'));
  } else {
    errs.push(fieldError.invalid('spec.updateStrategy', update, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  return errs;
}

/** The statefulset strategy. */
export function statefulSetStrategy(names?: Names): Strategy {
  return workloadStrategy({
    kindWord: 'statefulset',
    initialStatus: () => ({ replicas: 0, availableReplicas: 0 }),
    deadlineWord: 'StatefulSet',
    validateSpec: validateStatefulSetSpec,
    ...(names ? { names } : {}),
    defaults(spec) {
      setDefault(spec, 'replicas', 1);
      setDefault(spec, 'podManagementPolicy', 'OrderedReady');
      const update = child(spec, 'updateStrategy');
      setDefault(update, 'type', 'RollingUpdate');
      if (update['type'] === 'RollingUpdate') setDefault(child(update, 'rollingUpdate'), 'partition', 0);
      setDefault(spec, 'revisionHistoryLimit', 10);
      const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
      setDefault(retention, 'whenDeleted', 'Retain');
      setDefault(retention, 'whenScaled', 'Retain');
      for (const raw of Array.isArray(spec['volumeClaimTemplates']) ? spec['volumeClaimTemplates'] : []) {
        const claim = record(raw);
        if (claim === undefined) continue;
        defaultPersistentVolumeClaim(claim);
        setDefault(child(claim, 'status'), 'phase', 'Pending');
      }
    },
    validateSpecUpdate(spec, old): FieldError[] {
      if (sameJson(fixedPart(spec), fixedPart(old))) return [];
      return [fieldError.forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
    },
  });
}
