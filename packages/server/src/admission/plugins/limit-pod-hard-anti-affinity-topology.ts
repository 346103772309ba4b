/**
 * LimitPodHardAntiAffinityTopology (plugin/pkg/admission/antiaffinity): a required pod anti-affinity term may only
 * use the hostname topology key; anything wider would let one pod keep a whole zone to itself.
 */
import type { Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { asObject, objectsOf, specOf, stringOf } from '../object-access.js';
import { admitted, refused, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const limitPodHardAntiAffinityTopologyPluginName = 'LimitPodHardAntiAffinityTopology';

/** Creates the plugin. */
export function limitPodHardAntiAffinityTopologyPlugin(names: Names): AdmissionPlugin {
  const hostnameKey = names.domain('hostname');
  return {
    name: limitPodHardAntiAffinityTopologyPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined) return admitted;
      const antiAffinity = asObject(asObject(specOf(a.object)['affinity'])?.['podAntiAffinity']);
      for (const term of objectsOf(antiAffinity?.['requiredDuringSchedulingIgnoredDuringExecution'])) {
        const key = stringOf(term['topologyKey']);
        if (key !== hostnameKey) {
          return refused(admissionForbidden(a,
            `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${hostnameKey} is allowed`));
        }
      }
      return admitted;
    },
  };
}
