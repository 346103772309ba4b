/**
 * Nodes: Name, Status, Roles, Age, Version; wide: Internal-IP, External-IP, OS-Image, Kernel-Version,
 * Container-Runtime (printNode). Roles come from `node-role.<domain>/<role>` labels and the `<domain>/role` label.
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, record, since, str } from '../format.js';

const core = 'io.k8s.api.core.v1';

function address(node: Record<string, unknown>, type: string): string {
  return str(list(node, 'status', 'addresses').find((a) => str(a, 'type') === type), 'address') || '<none>';
}

/** The nodes printer. */
export const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Status', description: 'The status of the node' },
    { name: 'Roles', description: 'The roles of the node' },
    ageColumn,
    docColumn('Version', `${core}.NodeSystemInfo`, 'kubeletVersion'),
    docColumn('Internal-IP', `${core}.NodeStatus`, 'addresses', { priority: 1 }),
    docColumn('External-IP', `${core}.NodeStatus`, 'addresses', { priority: 1 }),
    docColumn('OS-Image', `${core}.NodeSystemInfo`, 'osImage', { priority: 1 }),
    docColumn('Kernel-Version', `${core}.NodeSystemInfo`, 'kernelVersion', { priority: 1 }),
    docColumn('Container-Runtime', `${core}.NodeSystemInfo`, 'containerRuntimeVersion', { priority: 1 }),
  ],
  cells(node, ctx) {
    const status: string[] = [];
    const ready = list(node, 'status', 'conditions').find((c) => str(c, 'type') === 'Ready');
    if (ready !== undefined) status.push(str(ready, 'status') === 'True' ? 'Ready' : 'NotReady');
    if (status.length === 0) status.push('Unknown');
    if (get(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
    const rolePrefix = `${ctx.names.fromUpstream('node-role.kubernetes.io')}/`;
    const roleLabel = ctx.names.domain('role');
    const roles = new Set<string>();
    for (const [k, v] of Object.entries(record(node, 'metadata', 'labels'))) {
      if (k.startsWith(rolePrefix) && k.length > rolePrefix.length) roles.add(k.slice(rolePrefix.length));
      else if (k === roleLabel && v !== '') roles.add(String(v));
    }
    const info = (field: string): string => str(node, 'status', 'nodeInfo', field) || '<unknown>';
    return [
      str(node, 'metadata', 'name'), status.join(','), roles.size > 0 ? [...roles].sort().join(',') : '<none>',
      since(get(node, 'metadata', 'creationTimestamp'), ctx.now), str(node, 'status', 'nodeInfo', 'kubeletVersion'),
      address(node, 'InternalIP'), address(node, 'ExternalIP'), info('osImage'), info('kernelVersion'), info('containerRuntimeVersion'),
    ];
  },
};
