/** ReplicaSets: Name, Desired, Current, Ready, Age; wide: Containers, Images, Selector (printReplicaSet, 1.27). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, get, list, num, since, str } from '../format.js';
import { formatLabelSelector } from './selectors.js';

const apps = 'io.k8s.api.apps.v1';

/** The replicasets printer. */
export const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Desired', `${apps}.ReplicaSetSpec`, 'replicas', { type: 'integer' }),
    docColumn('Current', `${apps}.ReplicaSetStatus`, 'replicas', { type: 'integer' }),
    docColumn('Ready', `${apps}.ReplicaSetStatus`, 'readyReplicas', { type: 'integer' }),
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', `${apps}.ReplicaSetSpec`, 'selector', { priority: 1 }),
  ],
  cells(rs, ctx) {
    const [names, images] = containerCells(list(rs, 'spec', 'template', 'spec', 'containers'));
    return [
      str(rs, 'metadata', 'name'), num(rs, 'spec', 'replicas'), num(rs, 'status', 'replicas'), num(rs, 'status', 'readyReplicas'),
      since(get(rs, 'metadata', 'creationTimestamp'), ctx.now), names, images, formatLabelSelector(get(rs, 'spec', 'selector')),
    ];
  },
};
