/**
 * ResourceQuotas: Name, Age, Request, Limit (printResourceQuota): `resource: used/hard` for every hard limit,
 * sorted by resource name, `limits.*` resources in the Limit column and the rest in Request.
 */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, quantity, record, since, str } from '../format.js';

/** The resourcequotas printer. */
export const resourceQuotaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    { name: 'Request', description: 'Request represents a minimum amount of cpu/memory that a container may consume.' },
    { name: 'Limit', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.' },
  ],
  cells(rq, ctx) {
    const hard = record(rq, 'status', 'hard');
    const used = record(rq, 'status', 'used');
    const request: string[] = [];
    const limit: string[] = [];
    for (const name of Object.keys(hard).sort()) {
      const pieces = name.split('.');
      const text = `${name}: ${quantity(used[name])}/${quantity(hard[name])}`;
      (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(text);
    }
    return [str(rq, 'metadata', 'name'), since(get(rq, 'metadata', 'creationTimestamp'), ctx.now), request.join(', '), limit.join(', ')];
  },
};
