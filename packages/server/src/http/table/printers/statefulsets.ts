/** StatefulSets: Name, Ready (`ready/desired`), Age; wide: Containers, Images (printStatefulSet, 1.27). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, get, list, num, since, str } from '../format.js';

/** The statefulsets printer. */
export const statefulSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Ready', description: 'Number of the pod with ready state' },
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
  ],
  cells(ss, ctx) {
    const [names, images] = containerCells(list(ss, 'spec', 'template', 'spec', 'containers'));
    return [
      str(ss, 'metadata', 'name'), `${num(ss, 'status', 'readyReplicas')}/${num(ss, 'spec', 'replicas')}`,
      since(get(ss, 'metadata', 'creationTimestamp'), ctx.now), names, images,
    ];
  },
};
