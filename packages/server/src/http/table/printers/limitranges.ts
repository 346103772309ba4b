/** LimitRanges: Name, Created At (an RFC 3339 date column, not an age) (printLimitRange). */
import { docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { str } from '../format.js';

/** The limitranges printer. */
export const limitRangePrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Created At', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'creationTimestamp', { type: 'date' })],
  cells: (lr) => [str(lr, 'metadata', 'name'), str(lr, 'metadata', 'creationTimestamp')],
};
