/**
 * `svcctl get`: objects by type and name (or `TYPE/NAME`, or `-f`), lists filtered by `-l` and `--field-selector`,
 * across namespaces with `-A`, printed from the server's Table or in any `-o` format, and `-w` to keep printing
 * changes after the list (`--watch-only` without it), as `kubectl get` does.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject, WatchEvent } from '@svc-apiserver/api';
import { createTransport, resourcePath, withQuery, type DiscoveredResource, type ResourceRef } from '@svc-apiserver/client';
import { manifestTargets } from '../manifests.js';
import { formatObjects, formatTable, parseOutput, tableRows, table, type OutputFormat, type ServerTable, type TableOptions, type TypedObject } from '../output.js';
import { asTable, getTable, isTable, tableAccept } from '../server-table.js';
import { error, namedTargets, refOf, reportStatus, type NamedTarget, type Session } from '../session.js';

/** The printed form of a watch event in a non-table format. */
function eventText(r: DiscoveredResource, obj: KubeObject, format: OutputFormat, showManagedFields: boolean): string {
  const text = formatObjects([{ r, obj }], format, true, showManagedFields);
  if (!text.ok) return '';
  return format.kind === 'yaml' ? `---\n${text.value}` : text.value;
}

async function* eventLines(res: IncomingMessage): AsyncGenerator<string> {
  let pending = '';
  res.setEncoding('utf8');
  for await (const chunk of res as AsyncIterable<string>) {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line !== '') yield line;
    }
  }
}

/** `-w` in a table: the server's Table rows of each event, printed without the header again. */
async function watchTable(s: Session, ref: ResourceRef, query: Record<string, string | undefined>, opts: TableOptions, resourceVersion: string | undefined, printHeader: boolean): Promise<number> {
  const transport = createTransport(s.client.config);
  const path = withQuery(resourcePath(ref), { ...query, watch: 'true', ...(resourceVersion === undefined ? {} : { resourceVersion }) });
  const opened = await transport.open({ method: 'GET', path, headers: { accept: tableAccept }, ...(s.io.signal ? { signal: s.io.signal } : {}) });
  if (!opened.ok) {
    transport.close();
    return s.io.signal?.aborted ? 0 : reportStatus(s.io, opened.error);
  }
  let header = printHeader;
  try {
    for await (const line of eventLines(opened.value)) {
      const event = JSON.parse(line) as WatchEvent<ServerTable>;
      if (event.type === 'ERROR') return reportStatus(s.io, event.object as never);
      if (event.type === 'BOOKMARK' || !isTable(event.object)) continue;
      const { header: h, rows } = tableRows(event.object, opts);
      if ((event.object.columnDefinitions ?? []).length === 0) continue;
      if (header && !opts.noHeaders) s.io.stdout(table([h]).replace(/\n$/, '\n'));
      header = false;
      for (const row of rows) s.io.stdout(table([row]));
    }
  } catch {
    // the stream ends when the command is stopped
  } finally {
    transport.close();
  }
  return 0;
}

/** `-w` in another format: each event's object. */
async function watchObjects(s: Session, r: DiscoveredResource, ref: ResourceRef, query: { labelSelector?: string; fieldSelector?: string }, format: OutputFormat, resourceVersion: string | undefined): Promise<number> {
  const handle = s.client.watch(ref, { ...query, ...(resourceVersion === undefined ? {} : { resourceVersion }), ...(s.io.signal ? { signal: s.io.signal } : {}) });
  s.io.signal?.addEventListener('abort', () => handle.close(), { once: true });
  for await (const event of handle) {
    if (event.type === 'ERROR') return reportStatus(s.io, event.object as never);
    if (event.type === 'BOOKMARK') continue;
    s.io.stdout(eventText(r, { apiVersion: r.group ? `${r.group}/${r.version}` : r.version, kind: r.kind, ...event.object }, format, s.flags['show-managed-fields'] === true));
  }
  return 0;
}

/** The Tables of several types or objects, printed as kubectl prints them. */
interface PrintedTable {
  readonly r: DiscoveredResource;
  readonly table: ServerTable;
}

/**
 * kubectl's human-readable printing of several Tables: consecutive ones of one type as one table; a blank line
 * before each later table that prints rows (unless `--no-headers`); names as `kind/name` when the command shows
 * more than one type; the NAMESPACE column with `-A` from the first namespaced type on. Whether anything was printed.
 */
function printTables(s: Session, tables: readonly PrintedTable[], opts: TableOptions, withKind: boolean): boolean {
  const merged: PrintedTable[] = [];
  for (const t of tables) {
    const last = merged[merged.length - 1];
    if (last && last.r === t.r) merged[merged.length - 1] = { r: t.r, table: { ...last.table, rows: [...(last.table.rows ?? []), ...(t.table.rows ?? [])] } };
    else merged.push(t);
  }
  let printed = false;
  // kubectl's printers share their flags: once a namespaced type has shown the NAMESPACE column, the cluster-scoped
  // types after it show it too, empty
  let withNamespace = false;
  for (const { r, table: t } of merged) {
    withNamespace ||= opts.withNamespace && r.namespaced;
    if ((t.rows ?? []).length === 0) continue;
    if (printed && !opts.noHeaders) s.io.stdout('\n');
    s.io.stdout(formatTable(t, { ...opts, withNamespace, ...(withKind ? { kind: r } : {}) }));
    printed = true;
  }
  return printed;
}

/** Runs `get`. */
export async function cmdGet(s: Session, args: string[]): Promise<number> {
  const format = parseOutput(s.flags.output);
  if (!format.ok) return error(s.io, format.error);
  const all = s.flags['all-namespaces'] === true;
  const query: { labelSelector?: string; fieldSelector?: string } = {
    ...(s.flags.selector === undefined ? {} : { labelSelector: s.flags.selector }),
    ...(s.flags['field-selector'] === undefined ? {} : { fieldSelector: s.flags['field-selector'] }),
  };
  let targets: NamedTarget[];
  let types: DiscoveredResource[] = [];
  if ((s.flags.filename ?? []).length > 0) {
    const t = await manifestTargets(s);
    if (!t.ok) return t.error;
    targets = t.value.map((m) => ({ r: m.r, name: m.obj.metadata?.name ?? '' }));
  } else {
    const t = await namedTargets(s, args, true);
    if (!t.ok) return t.error;
    targets = t.value.targets;
    types = t.value.types;
  }
  const ns = all ? undefined : s.namespace;
  const tableOpts: TableOptions = { wide: format.value.kind === 'wide', withNamespace: all, showLabels: s.flags['show-labels'] === true, noHeaders: s.flags['no-headers'] === true };
  const isTableFormat = format.value.kind === 'table' || format.value.kind === 'wide';
  const watching = s.flags.watch === true || s.flags['watch-only'] === true;
  if (watching && types.length > 1) return error(s.io, 'you may only specify a single resource type');
  const [r] = types;

  if (targets.length === 0 && watching && r !== undefined) {
    const ref = refOf(r, ns);
    if (isTableFormat) {
      // --watch-only still lists, for the resourceVersion the watch starts after (kubectl's way)
      const got = await getTable(s, ref, undefined, query);
      if (!got.ok) return reportStatus(s.io, got.error);
      const rv = (got.value as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
      const printed = s.flags['watch-only'] !== true && printTables(s, [{ r, table: asTable(got.value) }], tableOpts, false);
      if (s.flags['watch-only'] !== true && !printed) s.io.stderr(r.namespaced && !all ? `No resources found in ${s.namespace} namespace.\n` : 'No resources found\n');
      return watchTable(s, ref, query, { ...tableOpts, withNamespace: all && r.namespaced }, rv, !printed);
    }
    const list = await s.client.list(ref, query);
    if (!list.ok) return reportStatus(s.io, list.error);
    if (s.flags['watch-only'] !== true) {
      // list items carry no kind/apiVersion on the wire; kubectl shows them filled in
      for (const o of list.value.items) s.io.stdout(eventText(r, { apiVersion: list.value.apiVersion, kind: r.kind, ...o }, format.value, s.flags['show-managed-fields'] === true));
    }
    return watchObjects(s, r, ref, query, format.value, list.value.metadata?.resourceVersion);
  }

  let code = 0;
  const tables: PrintedTable[] = [];
  const objects: TypedObject[] = [];
  if (targets.length === 0) {
    for (const type of types) {
      const ref = refOf(type, ns);
      if (isTableFormat) {
        const got = await getTable(s, ref, undefined, query);
        if (got.ok) tables.push({ r: type, table: asTable(got.value) });
        else code = reportStatus(s.io, got.error);
        continue;
      }
      const list = await s.client.list(ref, query);
      if (!list.ok) {
        code = reportStatus(s.io, list.error);
        continue;
      }
      for (const o of list.value.items) objects.push({ r: type, obj: { apiVersion: list.value.apiVersion, kind: type.kind, ...o } });
    }
  }
  for (const t of targets) {
    const ref = refOf(t.r, t.ns ?? ns ?? s.namespace);
    if (isTableFormat) {
      const got = await getTable(s, ref, t.name, {});
      if (got.ok) tables.push({ r: t.r, table: asTable(got.value) });
      else code = reportStatus(s.io, got.error);
      continue;
    }
    const got = await s.client.get(ref, t.name);
    if (got.ok) objects.push({ r: t.r, obj: got.value });
    else code = reportStatus(s.io, got.error);
  }
  if (isTableFormat) {
    const printed = printTables(s, tables, tableOpts, new Set(tables.map((t) => t.r)).size > 1);
    if (!printed && code === 0) {
      s.io.stderr(!all && tables.every((t) => t.r.namespaced) ? `No resources found in ${s.namespace} namespace.\n` : 'No resources found\n');
    }
    return code;
  }
  // named objects print alone when one was asked for, lists and several objects as a List
  if (targets.length > 0 && objects.length === 0) return code;
  const text = formatObjects(objects, format.value, targets.length === 1, s.flags['show-managed-fields'] === true);
  if (!text.ok) return error(s.io, text.error);
  s.io.stdout(text.value);
  return code;
}
