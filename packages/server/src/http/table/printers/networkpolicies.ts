/** NetworkPolicies: Name, Pod-Selector (`<none>` selects all), Age (printNetworkPolicy, 1.27). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';
import { formatLabelSelector } from './selectors.js';

/** The networkpolicies printer. */
export const networkPolicyPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Pod-Selector', 'io.k8s.api.networking.v1.NetworkPolicySpec', 'podSelector'), ageColumn],
  cells: (np, ctx) => [
    str(np, 'metadata', 'name'), formatLabelSelector(get(np, 'spec', 'podSelector') ?? {}), since(get(np, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
