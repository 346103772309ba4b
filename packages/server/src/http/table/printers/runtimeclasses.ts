/**
 * RuntimeClasses: Name, Handler, Age (printRuntimeClass, 1.27). Upstream describes Handler with an ObjectMeta doc
 * entry that does not exist, so its description is empty.
 */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';

/** The runtimeclasses printer. */
export const runtimeClassPrinter: TablePrinter = {
  columns: [nameColumn, { name: 'Handler', description: '' }, ageColumn],
  cells: (rc, ctx) => [str(rc, 'metadata', 'name'), str(rc, 'handler'), since(get(rc, 'metadata', 'creationTimestamp'), ctx.now)],
};
