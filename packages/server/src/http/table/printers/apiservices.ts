/**
 * APIServices: Name, Service (`namespace/name`, `Local` without one), Available (the Available condition's status,
 * `False (Reason)` when not true and a reason is given, `Unknown` without the condition), Age (kube-aggregator's
 * APIService table convertor, 1.27).
 */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

function available(obj: Record<string, unknown>): string {
  const cond = list(obj, 'status', 'conditions').find((c) => str(c, 'type') === 'Available');
  if (cond === undefined) return 'Unknown';
  const status = str(cond, 'status');
  if (status !== 'True' && str(cond, 'reason') !== '') return `${status} (${str(cond, 'reason')})`;
  return status;
}

/** The apiservices printer. */
export const apiServicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Service', description: 'The reference to the service that hosts this API endpoint.' },
    { name: 'Available', description: 'Whether this service is available.' },
    ageColumn,
  ],
  cells(obj, ctx) {
    const svc = get(obj, 'spec', 'service');
    return [
      str(obj, 'metadata', 'name'), svc !== undefined && svc !== null ? `${str(svc, 'namespace')}/${str(svc, 'name')}` : 'Local',
      available(obj), since(get(obj, 'metadata', 'creationTimestamp'), ctx.now),
    ];
  },
};
