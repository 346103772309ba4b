/**
 * apps/v1 DaemonSets (pkg/registry/apps/daemonset): `updateStrategy` RollingUpdate with `maxUnavailable` 1 and
 * `maxSurge` 0, `revisionHistoryLimit` 10, and the workload rules (workload.ts).
 */
import { fieldError, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { child, setDefault } from './pod-spec.js';
import { workloadStrategy } from './workload.js';

/** The daemonset strategy. */
export function daemonSetStrategy(names?: Names): Strategy {
  return workloadStrategy({
    kindWord: 'daemonset',
    initialStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
    deadlineWord: 'DaemonSet',
    ...(names ? { names } : {}),
    defaults(spec) {
      const update = child(spec, 'updateStrategy');
      setDefault(update, 'type', 'RollingUpdate');
      if (update['type'] === 'RollingUpdate') {
        const rolling = child(update, 'rollingUpdate');
        setDefault(rolling, 'maxUnavailable', 1);
        setDefault(rolling, 'maxSurge', 0);
      }
      setDefault(spec, 'revisionHistoryLimit', 10);
    },
    validateSpec(spec) {
      const type = record(spec['updateStrategy'])?.['type'];
      return type === 'RollingUpdate' || type === 'OnDelete' ? [] : [fieldError.notSupported('spec.updateStrategy.type', type, ['OnDelete', 'RollingUpdate'])];
    },
  });
}
