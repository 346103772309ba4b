/**
 * Priority (plugin/pkg/admission/priority): a new pod gets `spec.priority` and `spec.preemptionPolicy` from the
 * PriorityClass it names, or from the class marked `globalDefault` (priority 0 and PreemptLowerPriority when there
 * is none); naming a class that does not exist, or setting a priority or policy other than the class's, is
 * refused. An update keeps the priority set at creation. A second `globalDefault` class is refused. The two system
 * classes (`system-node-critical`, `system-cluster-critical`) resolve even before their objects exist.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { childObject, specOf } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const priorityPluginName = 'Priority';

/** The built-in classes (scheduling.SystemPriorityClasses), which the server always knows. */
const systemClasses: Readonly<Record<string, KubeObject>> = {
  'system-node-critical': { metadata: { name: 'system-node-critical' }, value: 2_000_001_000, preemptionPolicy: 'PreemptLowerPriority' },
  'system-cluster-critical': { metadata: { name: 'system-cluster-critical' }, value: 2_000_000_000, preemptionPolicy: 'PreemptLowerPriority' },
};

/** Creates the plugin. */
export function priorityPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(priorityPluginName);
  const scheduling = names.group('scheduling');
  const classes = async () => (await deps.informer(scheduling, 'priorityclasses'))?.list() ?? [];
  const globalDefault = async (): Promise<KubeObject | undefined> => {
    // Of several (written before this plugin was on), the lowest value wins, as kube's getDefaultPriorityClass picks.
    const defaults = (await classes()).filter((c) => c['globalDefault'] === true);
    return defaults.sort((x, y) => Number(x['value'] ?? 0) - Number(y['value'] ?? 0))[0];
  };

  const admitPod = async (a: AdmissionAttributes) => {
    const spec = childObject(a.object!, 'spec');
    if (a.operation === 'UPDATE') {
      // The priority set at creation stays; validation refuses other changes.
      const old = specOf(a.oldObject);
      if (spec['priority'] === undefined && old['priority'] !== undefined) spec['priority'] = old['priority'];
      if (spec['preemptionPolicy'] === undefined && old['preemptionPolicy'] !== undefined) spec['preemptionPolicy'] = old['preemptionPolicy'];
      return admitted;
    }
    let priority: number;
    let policy: string | undefined;
    const className = spec['priorityClassName'];
    if (typeof className !== 'string' || className === '') {
      const found = await globalDefault();
      priority = found === undefined ? 0 : Number(found['value'] ?? 0);
      policy = found === undefined ? 'PreemptLowerPriority' : (found['preemptionPolicy'] as string | undefined);
      if (found !== undefined) spec['priorityClassName'] = found.metadata?.name ?? '';
    } else {
      const found = (await deps.informer(scheduling, 'priorityclasses'))?.get('', className) ?? systemClasses[className];
      if (found === undefined) return refused(admissionForbidden(a, `no PriorityClass with name ${className} was found`));
      priority = Number(found['value'] ?? 0);
      policy = found['preemptionPolicy'] as string | undefined;
    }
    const given = spec['priority'];
    if (given !== undefined && given !== null && given !== priority) {
      return refused(admissionForbidden(a,
        `the integer value of priority (${String(given)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`));
    }
    spec['priority'] = priority;
    if (policy !== undefined) {
      const givenPolicy = spec['preemptionPolicy'];
      if (givenPolicy !== undefined && givenPolicy !== null && givenPolicy !== policy) {
        return refused(admissionForbidden(a,
          `the string value of PreemptionPolicy (${String(givenPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`));
      }
      spec['preemptionPolicy'] = policy;
    }
    return admitted;
  };

  return {
    name: priorityPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (group, resource) => (group === '' && resource === 'pods') || (group === scheduling && resource === 'priorityclasses'),
    async admit(a) {
      if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || a.object === undefined) return admitted;
      return admitPod(a);
    },
    async validate(a) {
      if (a.group !== scheduling || a.resource !== 'priorityclasses' || a.subresource !== '' || a.object === undefined) return admitted;
      if (a.object['globalDefault'] !== true) return admitted;
      const existing = await globalDefault();
      if (existing === undefined) return admitted;
      const name = existing.metadata?.name ?? '';
      if (a.operation === 'CREATE' || (a.operation === 'UPDATE' && name !== a.object.metadata?.name)) {
        return refused(admissionForbidden(a, `PriorityClass ${name} is already marked as default. Only one default can exist`));
      }
      return admitted;
    },
  };
}
