/**
 * apps/v1 ReplicaSets (pkg/registry/apps/replicaset): `replicas` 1 and the workload rules (workload.ts).
 */
import type { Names } from '@svc-apiserver/api';
import type { Strategy } from '../strategy.js';
import { setDefault } from './pod-spec.js';
import { workloadStrategy } from './workload.js';

/** The replicaset strategy. */
export function replicaSetStrategy(names?: Names): Strategy {
  return workloadStrategy({
    kindWord: 'deployment', deadlineWord: 'ReplicaSet', initialStatus: () => ({ replicas: 0 }),
    defaults: (spec) => setDefault(spec, 'replicas', 1), ...(names ? { names } : {}),
  });
}
