/** Secrets: Name, Type, Data (number of keys), Age (printSecret). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, record, since, str } from '../format.js';

const secret = 'io.k8s.api.core.v1.Secret';

/** The secrets printer. */
export const secretPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Type', secret, 'type'), docColumn('Data', secret, 'data'), ageColumn],
  cells: (s, ctx) => [
    str(s, 'metadata', 'name'), str(s, 'type'), Object.keys(record(s, 'data')).length, since(get(s, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
