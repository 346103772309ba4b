/** CSINodes: Name, Drivers (count), Age (printCSINode, 1.27). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

/** The csinodes printer. */
export const csiNodePrinter: TablePrinter = {
  columns: [nameColumn, { name: 'Drivers', type: 'integer', description: 'Drivers indicates the number of CSI drivers registered on the node' }, ageColumn],
  cells: (n, ctx) => [str(n, 'metadata', 'name'), list(n, 'spec', 'drivers').length, since(get(n, 'metadata', 'creationTimestamp'), ctx.now)],
};
