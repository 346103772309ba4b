/**
 * ExtendedResourceToleration (plugin/pkg/admission/extendedresourcetoleration): a pod requesting an extended
 * resource (a domain-qualified name outside the built-in domain, like `example.com/gpu`) tolerates the taint of
 * that name with effect NoSchedule, so nodes tainted for the resource admit exactly the pods that use it.
 */
import type { Names } from '@svc-apiserver/api';
import { asObject, childObject, containersOf, stringOf, type Json } from '../object-access.js';
import { admitted, type AdmissionPlugin } from '../plugin.js';
import { tolerationsOf } from '../tolerations.js';

/** The plugin's name. */
export const extendedResourceTolerationPluginName = 'ExtendedResourceToleration';

/** helper.IsExtendedResourceName: domain-qualified, not in the built-in domain, not a `requests.` quota name. */
export function isExtendedResourceName(name: string, names: Names): boolean {
  if (!name.includes('/')) return false;
  if (name.includes(`${names.domain('')}`) || name.includes('kubernetes.io/')) return false;
  return !name.startsWith('requests.');
}

/**
 * The resources a container requests: its requests, and the limits without a request (API defaulting copies
 * those into requests before kube's admission sees the pod).
 */
export function requestedResources(container: Json): string[] {
  const resources = asObject(container['resources']) ?? {};
  return [...new Set([...Object.keys(asObject(resources['requests']) ?? {}), ...Object.keys(asObject(resources['limits']) ?? {})])];
}

/** Creates the plugin. */
export function extendedResourceTolerationPlugin(names: Names): AdmissionPlugin {
  return {
    name: extendedResourceTolerationPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    admit(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = childObject(a.object, 'spec');
      const extended = new Set<string>();
      for (const { container } of containersOf(spec, ['containers', 'initContainers'])) {
        for (const r of requestedResources(container)) if (isExtendedResourceName(r, names)) extended.add(r);
      }
      if (extended.size === 0) return admitted;
      const tolerations = tolerationsOf(spec);
      for (const resource of [...extended].sort()) {
        const wanted: Json = { key: resource, operator: 'Exists', effect: 'NoSchedule' };
        // helper.AddOrUpdateTolerationInPod: one toleration per key, operator, value and effect.
        const same = tolerations.findIndex((t) => stringOf(t['key']) === resource && stringOf(t['operator']) === 'Exists' &&
          stringOf(t['effect']) === 'NoSchedule' && stringOf(t['value']) === '');
        if (same >= 0) tolerations[same] = wanted;
        else tolerations.push(wanted);
      }
      spec['tolerations'] = tolerations;
      return admitted;
    },
  };
}
