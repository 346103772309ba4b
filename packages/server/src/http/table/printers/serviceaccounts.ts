/** ServiceAccounts: Name, Secrets (count), Age (printServiceAccount). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

/** The serviceaccounts printer. */
export const serviceAccountPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Secrets', 'io.k8s.api.core.v1.ServiceAccount', 'secrets'), ageColumn],
  cells: (sa, ctx) => [str(sa, 'metadata', 'name'), list(sa, 'secrets').length, since(get(sa, 'metadata', 'creationTimestamp'), ctx.now)],
};
