/**
 * Deployments: Name, Ready (`ready/desired`), Up-to-date, Available, Age; wide: Containers, Images, Selector
 * (printDeployment, 1.27; the selector is the plain selector string, empty when it selects everything).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, get, list, num, since, str } from '../format.js';
import { selectorString } from './selectors.js';

const apps = 'io.k8s.api.apps.v1';

/** The deployments printer. */
export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Ready', description: 'Number of the pod with ready state' },
    docColumn('Up-to-date', `${apps}.DeploymentStatus`, 'updatedReplicas'),
    docColumn('Available', `${apps}.DeploymentStatus`, 'availableReplicas'),
    ageColumn,
    { name: 'Containers', priority: 1, description: 'Names of each container in the template.' },
    { name: 'Images', priority: 1, description: 'Images referenced by each container in the template.' },
    docColumn('Selector', `${apps}.DeploymentSpec`, 'selector', { priority: 1 }),
  ],
  cells(d, ctx) {
    const [names, images] = containerCells(list(d, 'spec', 'template', 'spec', 'containers'));
    return [
      str(d, 'metadata', 'name'), `${num(d, 'status', 'readyReplicas')}/${num(d, 'spec', 'replicas')}`,
      num(d, 'status', 'updatedReplicas'), num(d, 'status', 'availableReplicas'), since(get(d, 'metadata', 'creationTimestamp'), ctx.now),
      names, images, selectorString(get(d, 'spec', 'selector')) ?? '<invalid>',
    ];
  },
};
