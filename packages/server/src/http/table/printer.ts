/**
 * A Table printer: the column definitions and the cells kube-apiserver 1.27's printers
 * (pkg/printers/internalversion) produce for one kind. kube-apiserver always prints the wide columns
 * (priority 1); kubectl shows them with `-o wide`.
 */
import type { Names } from '@svc-apiserver/api';
import { fieldDoc } from './column-docs.js';

/** A column definition as a Table carries it (every field present, as Go writes them). */
export interface ColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/** A row condition (`Completed` for finished pods). */
export interface RowCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** What cells may depend on besides the object. */
export interface PrintContext {
  readonly names: Names;
  /** The current time in milliseconds (ages). */
  readonly now: number;
}

/** A column as a printer declares it; the description is literal or the doc of a schema field. */
export interface ColumnSpec {
  readonly name: string;
  readonly type?: string;
  readonly format?: string;
  readonly priority?: number;
  readonly description: string | { readonly schema: string; readonly field: string };
}

/** A kind's printer. */
export interface TablePrinter {
  readonly columns: readonly ColumnSpec[];
  cells(object: Record<string, unknown>, ctx: PrintContext): unknown[];
  conditions?(object: Record<string, unknown>): RowCondition[] | undefined;
}

const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The `Name` column every printer starts with. */
export const nameColumn: ColumnSpec = { name: 'Name', format: 'name', description: { schema: objectMeta, field: 'name' } };
/** The `Age` column. */
export const ageColumn: ColumnSpec = { name: 'Age', description: { schema: objectMeta, field: 'creationTimestamp' } };

/** Shorthand for a column documented by a schema field. */
export function docColumn(name: string, schema: string, field: string, extra: Omit<ColumnSpec, 'name' | 'description'> = {}): ColumnSpec {
  return { name, ...extra, description: { schema, field } };
}

const resolved = new WeakMap<TablePrinter, ColumnDefinition[]>();

/** The column definitions of a printer, descriptions resolved (once). */
export function columnDefinitions(printer: TablePrinter): ColumnDefinition[] {
  let defs = resolved.get(printer);
  if (!defs) {
    defs = printer.columns.map((c) => ({
      name: c.name,
      type: c.type ?? 'string',
      format: c.format ?? '',
      description: typeof c.description === 'string' ? c.description : fieldDoc(c.description.schema, c.description.field),
      priority: c.priority ?? 0,
    }));
    resolved.set(printer, defs);
  }
  return defs;
}
