/** ComponentStatuses: Name, Status (`Healthy`/`Unhealthy`/`Unknown`), Message, Error of the Healthy condition (printComponentStatus, 1.27). */
import { nameColumn, type TablePrinter } from '../printer.js';
import { list, str } from '../format.js';

/** The componentstatuses printer. */
export const componentStatusPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Status', description: 'Status of the component conditions' },
    { name: 'Message', description: 'Message of the component conditions' },
    { name: 'Error', description: 'Error of the component conditions' },
  ],
  cells(cs) {
    const healthy = list(cs, 'conditions').find((c) => str(c, 'type') === 'Healthy');
    if (healthy === undefined) return [str(cs, 'metadata', 'name'), 'Unknown', '', ''];
    return [str(cs, 'metadata', 'name'), str(healthy, 'status') === 'True' ? 'Healthy' : 'Unhealthy', str(healthy, 'message'), str(healthy, 'error')];
  },
};
