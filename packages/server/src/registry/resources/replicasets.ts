/**
 * apps/v1 ReplicaSets (pkg/registry/apps/replicaset, ValidateReplicaSetSpec, 1.27): `replicas` 1, non-negative
 * counts, and the workload rules (workload.ts).
 */
import type { Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import type { Strategy } from '../strategy.js';
import { obj } from './field-checks.js';
import { setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** The replicaset strategy of a flavour under the server's gates. */
export function replicaSetStrategy(names: Names, gates?: FeatureGates): Strategy {
  return workloadStrategy({
    kind: 'ReplicaSet', names, ...(gates === undefined ? {} : { gates }), initialStatus: () => ({ replicas: 0 }),
    defaults: (spec) => setDefault(spec, 'replicas', 1),
    validate(object) {
      const spec = obj(object['spec']);
      return [...nonNegative(spec, 'replicas', 'spec.replicas'), ...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds')];
    },
  });
}
