/**
 * DaemonSets: Name, Desired, Current, Ready, Up-to-date, Available, Node Selector, Age; wide: Containers, Images,
 * Selector (printDaemonSet, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, formatLabels, get, list, num, since, str } from '../format.js';
import { formatLabelSelector } from './selectors.js';

const status = 'io.k8s.api.apps.v1.DaemonSetStatus';
const integer = { type: 'integer' } as const;

/** The daemonsets printer. */
export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Desired', status, 'desiredNumberScheduled', integer),
    docColumn('Current', status, 'currentNumberScheduled', integer),
    docColumn('Ready', status, 'numberReady', integer),
    docColumn('Up-to-date', status, 'updatedNumberScheduled', integer),
    docColumn('Available', status, 'numberAvailable', integer),
    docColumn('Node Selector', 'io.k8s.api.core.v1.PodSpec', 'nodeSelector'),
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', 'io.k8s.api.apps.v1.DaemonSetSpec', 'selector', { priority: 1 }),
  ],
  cells(ds, ctx) {
    const [names, images] = containerCells(list(ds, 'spec', 'template', 'spec', 'containers'));
    return [
      str(ds, 'metadata', 'name'), num(ds, 'status', 'desiredNumberScheduled'), num(ds, 'status', 'currentNumberScheduled'),
      num(ds, 'status', 'numberReady'), num(ds, 'status', 'updatedNumberScheduled'), num(ds, 'status', 'numberAvailable'),
      formatLabels(get(ds, 'spec', 'template', 'spec', 'nodeSelector')), since(get(ds, 'metadata', 'creationTimestamp'), ctx.now),
      names, images, formatLabelSelector(get(ds, 'spec', 'selector')),
    ];
  },
};
