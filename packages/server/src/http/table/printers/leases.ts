/** Leases: Name, Holder (`<unknown>` when unset), Age (printLease). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';

/** The leases printer. */
export const leasePrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Holder', 'io.k8s.api.coordination.v1.LeaseSpec', 'holderIdentity'), ageColumn],
  cells: (lease, ctx) => [
    str(lease, 'metadata', 'name'),
    typeof get(lease, 'spec', 'holderIdentity') === 'string' ? str(lease, 'spec', 'holderIdentity') : '<unknown>',
    since(get(lease, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
