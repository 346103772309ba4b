/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint): a new Node starts with the `<node domain>/not-ready`
 * NoSchedule taint, so nothing is scheduled to it before its agent reports it ready (the node lifecycle
 * controller removes the taint then).
 */
import type { Names } from '@svc-apiserver/api';
import { childObject, objectsOf, stringOf } from '../object-access.js';
import { admitted, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const taintNodesByConditionPluginName = 'TaintNodesByCondition';

/** Creates the plugin. */
export function taintNodesByConditionPlugin(names: Names): AdmissionPlugin {
  const notReady = names.domain('not-ready', 'node');
  return {
    name: taintNodesByConditionPluginName,
    enabledByDefault: true,
    handles: (operation) => operation === 'CREATE',
    actsOn: (group, resource) => group === '' && resource === 'nodes',
    admit(a) {
      if (a.group !== '' || a.resource !== 'nodes' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = childObject(a.object, 'spec');
      const taints = objectsOf(spec['taints']);
      // Taint.MatchTaint: the same key and effect.
      if (!taints.some((t) => stringOf(t['key']) === notReady && stringOf(t['effect']) === 'NoSchedule')) {
        spec['taints'] = [...(Array.isArray(spec['taints']) ? spec['taints'] : []), { key: notReady, effect: 'NoSchedule' }];
      }
      return admitted;
    },
  };
}
