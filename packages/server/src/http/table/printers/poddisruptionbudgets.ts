/** PodDisruptionBudgets: Name, Min Available, Max Unavailable (`N/A` when unset), Allowed Disruptions, Age (printPodDisruptionBudget, 1.27). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, num, since, str } from '../format.js';
import { intOrString } from './selectors.js';

const orNA = (v: unknown): string => (v === undefined || v === null ? 'N/A' : intOrString(v));

/** The poddisruptionbudgets printer. */
export const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Min Available', description: 'The minimum number of pods that must be available.' },
    { name: 'Max Unavailable', description: 'The maximum number of pods that may be unavailable.' },
    { name: 'Allowed Disruptions', type: 'integer', description: 'Calculated number of pods that may be disrupted at this time.' },
    ageColumn,
  ],
  cells: (pdb, ctx) => [
    str(pdb, 'metadata', 'name'), orNA(get(pdb, 'spec', 'minAvailable')), orNA(get(pdb, 'spec', 'maxUnavailable')),
    num(pdb, 'status', 'disruptionsAllowed'), since(get(pdb, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
