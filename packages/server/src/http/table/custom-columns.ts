/**
 * The Table printer of a custom resource (apiextensions-apiserver's tableconvertor): Name, then the CRD version's
 * `additionalPrinterColumns` (Age when it declares none), each cell read with its JSONPath (the first result;
 * none gives an empty cell) and typed as the column says: integers and numbers as JSON numbers, booleans, dates
 * as their RFC 3339 text, strings as printed (other values in their JSON form).
 */
import type JsonPath from 'jsonpath';
import { lazyRequire } from '../../lazy-module.js';
import type { PrinterColumn } from '../../registry/resource-def.js';
import { nameColumn, type TablePrinter } from './printer.js';

/** The JSONPath library, loaded by the first custom resource table printed. */
const jsonpath = lazyRequire<typeof JsonPath>('jsonpath');

function cell(type: string, value: unknown): unknown {
  if (value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : typeof value === 'bigint' ? value : null;
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? value : null;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** The first result of a kube JSONPath (`.spec.replicas`) in an object, undefined when there is none. */
export function firstResult(object: unknown, path: string): unknown {
  try {
    const results = jsonpath().query(object, `$${path}`, 1);
    return results.length === 0 ? undefined : results[0];
  } catch {
    return undefined;
  }
}

const printers = new WeakMap<readonly PrinterColumn[], TablePrinter>();

/** The printer of a custom resource's columns (one per column list). */
export function customColumnsPrinter(columns: readonly PrinterColumn[]): TablePrinter {
  let printer = printers.get(columns);
  if (printer === undefined) {
    printer = {
      columns: [
        nameColumn,
        ...columns.map((c) => ({ name: c.name, type: c.type, format: c.format, priority: c.priority, description: c.description })),
      ],
      cells: (object) => {
        const meta = (object['metadata'] ?? {}) as Record<string, unknown>;
        return [meta['name'] ?? '', ...columns.map((c) => cell(c.type, firstResult(object, c.jsonPath)))];
      },
    };
    printers.set(columns, printer);
  }
  return printer;
}
