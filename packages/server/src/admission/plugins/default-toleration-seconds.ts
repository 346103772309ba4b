/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): a pod that does not tolerate the
 * `not-ready` and `unreachable` node taints (effect NoExecute) gets tolerations of them for
 * `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` (5 minutes each), so
 * its pods are evicted from a lost node after that time rather than at once.
 */
import type { Names } from '@svc-apiserver/api';
import { childObject, stringOf, type Json } from '../object-access.js';
import { admitted, type AdmissionPlugin, type PluginInit } from '../plugin.js';
import { tolerationsOf } from '../tolerations.js';

/** The plugin's name. */
export const defaultTolerationSecondsPluginName = 'DefaultTolerationSeconds';

/** True when `tolerations` tolerate `key` with effect NoExecute (an empty key or effect tolerates every one). */
function tolerates(tolerations: readonly Json[], key: string): boolean {
  return tolerations.some((t) => {
    const k = stringOf(t['key']);
    const e = stringOf(t['effect']);
    return (k === key || k === '') && (e === 'NoExecute' || e === '');
  });
}

/** Creates the plugin with the flags' seconds. */
export function defaultTolerationSecondsPlugin(names: Names, init?: PluginInit): AdmissionPlugin {
  const notReady = names.domain('not-ready', 'node');
  const unreachable = names.domain('unreachable', 'node');
  const flags = init?.flags;
  const notReadySeconds = flags?.defaultNotReadyTolerationSeconds ?? 300;
  const unreachableSeconds = flags?.defaultUnreachableTolerationSeconds ?? 300;
  return {
    name: defaultTolerationSecondsPluginName,
    enabledByDefault: true,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (group, resource) => group === '' && resource === 'pods',
    admit(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = childObject(a.object, 'spec');
      const tolerations = tolerationsOf(spec);
      const added: Json[] = [];
      if (!tolerates(tolerations, notReady)) added.push({ key: notReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
      if (!tolerates(tolerations, unreachable)) {
        added.push({ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
      }
      if (added.length > 0) spec['tolerations'] = [...(Array.isArray(spec['tolerations']) ? spec['tolerations'] : []), ...added];
      return admitted;
    },
  };
}
