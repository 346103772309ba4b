/** PriorityClasses: Name, Value, Global-Default, Age (printPriorityClass, 1.27). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, num, since, str } from '../format.js';

const pc = 'io.k8s.api.scheduling.v1.PriorityClass';

/** The priorityclasses printer. */
export const priorityClassPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Value', pc, 'value', { type: 'integer' }), docColumn('Global-Default', pc, 'globalDefault', { type: 'boolean' }), ageColumn],
  cells: (p, ctx) => [str(p, 'metadata', 'name'), num(p, 'value'), get(p, 'globalDefault') === true, since(get(p, 'metadata', 'creationTimestamp'), ctx.now)],
};
