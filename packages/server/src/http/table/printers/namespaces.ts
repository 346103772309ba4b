/** Namespaces: Name, Status, Age (printNamespace). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';

/** The namespaces printer. */
export const namespacePrinter: TablePrinter = {
  columns: [nameColumn, { name: 'Status', description: 'The status of the namespace' }, ageColumn],
  cells: (ns, ctx) => [str(ns, 'metadata', 'name'), str(ns, 'status', 'phase'), since(get(ns, 'metadata', 'creationTimestamp'), ctx.now)],
};
