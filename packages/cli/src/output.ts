/**
 * Output of svcctl in kubectl's shapes: `-o json|yaml|name|wide|jsonpath=|jsonpath-file=|custom-columns=`, and
 * the default table built from the server's Table (its column definitions and cells, `wide` adding the columns of
 * priority above 0, `-A` a NAMESPACE column, `--show-labels` a LABELS column).
 */
import { readFileSync } from 'node:fs';
import { fail, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import type { DiscoveredResource } from '@svc-apiserver/client';
import { stringify } from 'yaml';
import { executeTemplate, parseTemplate, printValue, evaluate, type Template } from './jsonpath.js';
import { objectName } from './session.js';

/** An output format. */
export type OutputFormat =
  | { readonly kind: 'json' | 'yaml' | 'name' | 'table' | 'wide' }
  | { readonly kind: 'jsonpath'; readonly template: Template }
  | { readonly kind: 'custom-columns'; readonly columns: ReadonlyArray<{ readonly header: string; readonly template: Template }> };

/** Parses `-o`; kubectl's message when it names no printer. */
export function parseOutput(value: string | undefined): Result<OutputFormat, string> {
  if (value === undefined || value === '') return ok({ kind: 'table' });
  const plain = (['json', 'yaml', 'name', 'wide'] as const).find((f) => f === value);
  if (plain) return ok({ kind: plain });
  const eq = value.indexOf('=');
  const kind = eq < 0 ? value : value.slice(0, eq);
  const arg = eq < 0 ? '' : value.slice(eq + 1);
  if (kind === 'jsonpath' || kind === 'jsonpath-as-json' || kind === 'jsonpath-file') {
    if (arg === '') return fail('template format specified but no template given');
    let text = arg;
    if (kind === 'jsonpath-file') {
      try {
        text = readFileSync(arg, 'utf8');
      } catch {
        return fail(`error reading --template ${arg}`);
      }
    }
    const t = parseTemplate(text);
    return t.ok ? ok({ kind: 'jsonpath', template: t.value }) : fail(`error parsing jsonpath ${text}, ${t.error}`);
  }
  if (kind === 'custom-columns') {
    if (arg === '') return fail('custom-columns format specified but no custom columns given');
    const columns: Array<{ header: string; template: Template }> = [];
    for (const spec of arg.split(',')) {
      const colon = spec.indexOf(':');
      if (colon < 0) return fail(`unexpected custom-columns spec: ${spec}, expected <header>:<json-path-expr>`);
      const expr = spec.slice(colon + 1);
      const t = parseTemplate(expr.startsWith('{') ? expr : `{${expr}}`);
      if (!t.ok) return fail(t.error);
      columns.push({ header: spec.slice(0, colon), template: t.value });
    }
    return ok({ kind: 'custom-columns', columns });
  }
  return fail(`unable to match a printer suitable for the output format "${value}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`);
}

/** Left-aligned columns separated by three spaces, as kubectl's tabwriter prints them. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join('')).join('\n') + '\n';
}

/** The kubectl `List` that several objects print as. */
export function listOf(objects: readonly KubeObject[]): KubeObject {
  return { apiVersion: 'v1', items: [...objects], kind: 'List', metadata: { resourceVersion: '' } };
}

/** An object with the resource it was read from (for `-o name`). */
export interface TypedObject {
  readonly r: Pick<DiscoveredResource, 'kind' | 'group'>;
  readonly obj: KubeObject;
}

/** An object without `metadata.managedFields`, as kubectl prints JSON and YAML unless `--show-managed-fields`. */
function withoutManagedFields(o: KubeObject): KubeObject {
  if (o.metadata?.managedFields === undefined) return o;
  const { managedFields: _omitted, ...metadata } = o.metadata;
  return { ...o, metadata };
}

/**
 * Formats objects in a non-table format: one object alone when `single`, a `List` otherwise. JSON and YAML leave
 * out managedFields unless `showManagedFields` (kubectl's OmitManagedFieldsPrinter).
 */
export function formatObjects(typed: readonly TypedObject[], format: OutputFormat, single: boolean, showManagedFields = false): Result<string, string> {
  const objects = typed.map((t) => t.obj);
  const doc = (): KubeObject => (single && objects[0] ? objects[0] : listOf(objects));
  const printed = (): KubeObject => (showManagedFields ? doc() : single && objects[0] ? withoutManagedFields(objects[0]) : listOf(objects.map(withoutManagedFields)));
  switch (format.kind) {
    case 'json':
      return ok(JSON.stringify(printed(), null, 4) + '\n');
    case 'yaml':
      return ok(stringify(printed(), { lineWidth: 0 }));
    case 'name':
      return ok(typed.map(({ r, obj }) => objectName(r, obj.metadata?.name ?? '') + '\n').join(''));
    case 'jsonpath':
      return executeTemplate(format.template, doc());
    case 'custom-columns': {
      const rows = objects.map((o) => format.columns.map((c) => {
        const paths = c.template.nodes.filter((n) => n.kind === 'path');
        const values = paths.flatMap((n) => (n.kind === 'path' ? evaluate(o, n.path) : []));
        return values.length === 0 ? '<none>' : values.map(printValue).join(',');
      }));
      return ok(table([format.columns.map((c) => c.header), ...rows]));
    }
    default:
      return fail('a table is printed from the server\'s Table');
  }
}

/** A `meta.k8s.io/v1` Table (in either flavour's group). */
export interface ServerTable {
  readonly columnDefinitions?: ReadonlyArray<{ readonly name: string; readonly priority?: number; readonly format?: string }>;
  readonly rows?: ReadonlyArray<{ readonly cells: readonly unknown[]; readonly object?: KubeObject }>;
}

/** What the table shows besides the server's columns. */
export interface TableOptions {
  readonly wide: boolean;
  readonly withNamespace: boolean;
  readonly showLabels: boolean;
  readonly noHeaders: boolean;
  /** Names shown as `kind.group/name` (kubectl's WithKind, when one command prints several kinds). */
  readonly kind?: Pick<DiscoveredResource, 'kind' | 'group'>;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '<none>';
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

function labelsText(o: KubeObject | undefined): string {
  const labels = Object.entries(o?.metadata?.labels ?? {});
  return labels.length === 0 ? '<none>' : labels.sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
}

/** The header row and the rows of a server Table as kubectl prints them. */
export function tableRows(t: ServerTable, o: TableOptions): { header: string[]; rows: string[][] } {
  const defs = t.columnDefinitions ?? [];
  const shown = defs.map((d, i) => ({ d, i })).filter(({ d }) => o.wide || (d.priority ?? 0) === 0);
  const header = [...(o.withNamespace ? ['NAMESPACE'] : []), ...shown.map(({ d }) => d.name.toUpperCase()), ...(o.showLabels ? ['LABELS'] : [])];
  const kind = o.kind;
  // kubectl puts the kind before the cell of the column whose format is `name`
  const nameColumn = kind === undefined ? -1 : defs.findIndex((d) => d.format === 'name');
  const rows = (t.rows ?? []).map((row) => [
    ...(o.withNamespace ? [row.object?.metadata?.namespace ?? ''] : []),
    ...shown.map(({ i }) => (i === nameColumn && kind !== undefined ? objectName(kind, cellText(row.cells[i])) : cellText(row.cells[i]))),
    ...(o.showLabels ? [labelsText(row.object)] : []),
  ]);
  return { header, rows };
}

/** Prints a server Table. */
export function formatTable(t: ServerTable, o: TableOptions): string {
  const { header, rows } = tableRows(t, o);
  return table(o.noHeaders ? rows : [header, ...rows]);
}
