/**
 * ReplicationControllers: Name, Desired, Current, Ready, Age; wide: Containers, Images, Selector
 * (printReplicationController).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, formatLabels, get, list, num, since, str } from '../format.js';

const core = 'io.k8s.api.core.v1';

/** The replicationcontrollers printer. */
export const replicationControllerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Desired', `${core}.ReplicationControllerSpec`, 'replicas', { type: 'integer' }),
    docColumn('Current', `${core}.ReplicationControllerStatus`, 'replicas', { type: 'integer' }),
    docColumn('Ready', `${core}.ReplicationControllerStatus`, 'readyReplicas', { type: 'integer' }),
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', `${core}.ReplicationControllerSpec`, 'selector', { priority: 1 }),
  ],
  cells(rc, ctx) {
    const [names, images] = containerCells(list(rc, 'spec', 'template', 'spec', 'containers'));
    return [
      str(rc, 'metadata', 'name'), num(rc, 'spec', 'replicas'), num(rc, 'status', 'replicas'), num(rc, 'status', 'readyReplicas'),
      since(get(rc, 'metadata', 'creationTimestamp'), ctx.now), names, images, formatLabels(get(rc, 'spec', 'selector')),
    ];
  },
};
