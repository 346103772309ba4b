/** IngressClasses: Name, Controller, Parameters (`Kind[.apiGroup]/name`, `<none>`), Age (printIngressClass, 1.27). */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';

function parameters(ic: Record<string, unknown>): string {
  const p = get(ic, 'spec', 'parameters');
  if (p === undefined || p === null) return '<none>';
  const group = get(p, 'apiGroup');
  return `${str(p, 'kind')}${typeof group === 'string' ? `.${group}` : ''}/${str(p, 'name')}`;
}

/** The ingressclasses printer. */
export const ingressClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Controller', description: 'Controller that is responsible for handling this class' },
    { name: 'Parameters', description: 'A reference to a resource with additional parameters' },
    ageColumn,
  ],
  cells: (ic, ctx) => [str(ic, 'metadata', 'name'), str(ic, 'spec', 'controller'), parameters(ic), since(get(ic, 'metadata', 'creationTimestamp'), ctx.now)],
};
