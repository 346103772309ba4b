/**
 * RuntimeClass (plugin/pkg/admission/runtimeclass): a new pod naming a RuntimeClass gets the class's pod
 * overhead (`spec.overhead`; a pod that sets a different overhead is refused) and its scheduling constraints
 * (node selector merged in, refused on a conflicting value; tolerations merged). A pod naming a class that does not
 * exist is refused, and the validating phase refuses an overhead that no class defines.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { compareQuantities, parseQuantity } from '../../meta/quantity.js';
import { admissionForbidden } from '../admission-errors.js';
import { asObject, childObject, objectsOf, specOf, stringMap, type Json } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin } from '../plugin.js';
import { mergeTolerations, tolerationsOf } from '../tolerations.js';

/** The plugin's name. */
export const runtimeClassPluginName = 'RuntimeClass';

/** Semantic equality of resource lists: the same names with equal quantities. */
export function sameResourceList(a: Json | undefined, b: Json | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  return ak.every((k) => {
    const x = parseQuantity(a?.[k]);
    const y = parseQuantity(b?.[k]);
    return x !== undefined && y !== undefined ? compareQuantities(x, y) === 0 : a?.[k] === b?.[k];
  });
}

/** Creates the plugin. */
export function runtimeClassPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(runtimeClassPluginName);
  const node = names.group('node');
  const ignored = (a: AdmissionAttributes): boolean => a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined;
  /** The pod's RuntimeClass: undefined when it names none, a refusal when the class does not exist. */
  const runtimeClassOf = async (a: AdmissionAttributes): Promise<{ runtimeClass?: KubeObject } | AdmissionResult> => {
    const name = specOf(a.object)['runtimeClassName'];
    if (typeof name !== 'string' || name === '') return {};
    const classes = await deps.informer(node, 'runtimeclasses');
    const found = classes?.get('', name);
    if (found === undefined) return refused(admissionForbidden(a, `pod rejected: RuntimeClass "${name}" not found`));
    return { runtimeClass: found };
  };
  return {
    name: runtimeClassPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE',
    actsOn: (group, resource) => group === '' && resource === 'pods',
    async admit(a) {
      if (ignored(a)) return admitted;
      const found = await runtimeClassOf(a);
      if ('allowed' in found) return found;
      const rc = found.runtimeClass;
      if (rc === undefined) return admitted;
      const spec = childObject(a.object!, 'spec');
      const podFixed = asObject(asObject(rc['overhead'])?.['podFixed']);
      if (podFixed !== undefined) {
        const current = asObject(spec['overhead']);
        if (current !== undefined && Object.keys(current).length > 0 && !sameResourceList(current, podFixed)) {
          return refused(admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"));
        }
        spec['overhead'] = structuredClone(podFixed);
      }
      const scheduling = asObject(rc['scheduling']);
      if (scheduling !== undefined) {
        const selector = stringMap(spec['nodeSelector']);
        for (const [key, value] of Object.entries(stringMap(scheduling['nodeSelector']))) {
          const podValue = selector[key];
          if (podValue !== undefined && podValue !== value) {
            return refused(admissionForbidden(a,
              `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`));
          }
          selector[key] = value;
        }
        if (Object.keys(selector).length > 0) spec['nodeSelector'] = selector;
        const merged = mergeTolerations(tolerationsOf(spec), structuredClone(objectsOf(scheduling['tolerations'])));
        if (merged.length > 0) spec['tolerations'] = merged;
      }
      return admitted;
    },
    async validate(a) {
      if (ignored(a)) return admitted;
      const found = await runtimeClassOf(a);
      if ('allowed' in found) return found;
      const podFixed = asObject(asObject(found.runtimeClass?.['overhead'])?.['podFixed']);
      const overhead = specOf(a.object)['overhead'];
      if (podFixed !== undefined) {
        if (!sameResourceList(asObject(overhead), podFixed)) {
          return refused(admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"));
        }
      } else if (overhead !== undefined && overhead !== null) {
        return refused(admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'));
      }
      return admitted;
    },
  };
}
