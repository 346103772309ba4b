/** PodTemplates: Name, Containers, Images, Pod Labels (printPodTemplate). */
import { nameColumn, type TablePrinter } from '../printer.js';
import { containerCells, formatLabels, get, list, str } from '../format.js';

/** The podtemplates printer. */
export const podTemplatePrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Containers', description: 'Names of each container in the template.' },
    { name: 'Images', description: 'Images referenced by each container in the template.' },
    { name: 'Pod Labels', description: 'The labels for the pod template.' },
  ],
  cells(pt) {
    const [names, images] = containerCells(list(pt, 'template', 'spec', 'containers'));
    return [str(pt, 'metadata', 'name'), names, images, formatLabels(get(pt, 'template', 'metadata', 'labels'))];
  },
};
