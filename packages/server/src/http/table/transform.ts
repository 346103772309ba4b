/**
 * Response conversions kube-apiserver applies when the Accept header asks for them (`as=Table`,
 * `as=PartialObjectMetadata`, `as=PartialObjectMetadataList`, with `g=meta.svc.io` and `v=v1` or `v1beta1`): an
 * object or list becomes a `Table` (rows from the kind's printer, or the default Name / Created At columns; each
 * row's `object` per `includeObject=None|Metadata|Object`, Metadata by default), or keeps only its metadata.
 * Status objects pass through unchanged. On a watch, only the first Table carries column definitions.
 */
import { badRequest, fail, type Names, notAcceptable, ok, type Result, type Status } from '@svc-apiserver/api';
import { columnDefinitions, type ColumnSpec, type PrintContext, type TablePrinter } from './printer.js';
import { printers } from './printers/index.js';

/** A conversion requested in Accept. */
export interface Conversion {
  readonly kind: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** The requested meta group in this flavour (`meta.svc.io`). */
  readonly group: string;
  /** `v1` or `v1beta1`. */
  readonly version: string;
}

/** Settings of one conversion. */
export interface TransformOptions {
  readonly names: Names;
  /** The `includeObject` query parameter (Table only). */
  readonly includeObject?: string | null;
  /** The current time (ms) for ages; default now. */
  readonly now?: number;
  /** Leave the column definitions out (watch events after the first). */
  readonly noHeaders?: boolean;
  /** Media types this response could be written in, for a 406 message. */
  readonly mediaTypes?: readonly string[];
  /** The printer of the endpoint's resource when it has its own (custom resources); else the kind's. */
  readonly printer?: TablePrinter;
}

type Json = Record<string, unknown>;

const includeValues = new Set(['', 'None', 'Metadata', 'Object']);
const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The default table for kinds without a printer (document 1: Name, Created At). */
export const defaultPrinter: TablePrinter = {
  columns: [
    { name: 'Name', format: 'name', description: { schema: objectMeta, field: 'name' } },
    { name: 'Created At', type: 'date', description: { schema: objectMeta, field: 'creationTimestamp' } },
  ] satisfies ColumnSpec[],
  cells: (o) => {
    const meta = (o['metadata'] ?? {}) as Json;
    return [meta['name'] ?? '', meta['creationTimestamp'] ?? null];
  },
};

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function isList(o: Json): boolean {
  return Array.isArray(o['items']) && typeof o['kind'] === 'string' && (o['kind'] as string).endsWith('List');
}

function groupKeyOf(names: Names, apiVersion: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  return slash < 0 ? '' : names.groupKey(av.slice(0, slash));
}

/** The printer of a kind served under `apiVersion` (default table when none). */
export function printerFor(names: Names, apiVersion: unknown, kind: string): TablePrinter {
  return printers.get(`${groupKeyOf(names, apiVersion)}/${kind}`) ?? defaultPrinter;
}

function partial(o: Json, apiVersion: string): Json {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o['metadata'] ?? {} };
}

function listMeta(o: Json): Json {
  const meta = isObject(o['metadata']) ? o['metadata'] : {};
  const out: Json = {};
  for (const k of ['resourceVersion', 'continue', 'remainingItemCount']) {
    if (meta[k] !== undefined && meta[k] !== '') out[k] = meta[k];
  }
  return out;
}

function toTable(o: Json, c: Conversion, options: TransformOptions): Result<unknown> {
  const include = options.includeObject ?? '';
  if (!includeValues.has(include)) return fail(badRequest(`unrecognized includeObject value: ${JSON.stringify(include)}`));
  const apiVersion = `${c.group}/${c.version}`;
  const list = isList(o);
  const itemKind = list ? (o['kind'] as string).slice(0, -'List'.length) : String(o['kind'] ?? '');
  const printer = options.printer ?? printerFor(options.names, o['apiVersion'], itemKind);
  const ctx: PrintContext = { names: options.names, now: options.now ?? Date.now() };
  const items = (list ? o['items'] as unknown[] : [o]).filter(isObject);
  const rows = items.map((item) => {
    const row: Json = { cells: printer.cells(item, ctx) };
    const conditions = printer.conditions?.(item);
    if (conditions) row['conditions'] = conditions;
    if (include === 'Object') row['object'] = { kind: itemKind, apiVersion: o['apiVersion'], ...item };
    else if (include !== 'None') row['object'] = partial(item, apiVersion);
    return row;
  });
  let metadata: Json;
  if (list) metadata = listMeta(o);
  else {
    const rv = isObject(o['metadata']) ? o['metadata']['resourceVersion'] : undefined;
    metadata = rv ? { resourceVersion: rv } : {};
  }
  return {
    ok: true,
    value: {
      kind: 'Table',
      apiVersion,
      metadata,
      columnDefinitions: options.noHeaders ? null : columnDefinitions(printer),
      rows,
    },
  };
}

/** Applies a conversion to a response object. 406 when the object is a list and a single kind was asked, or back. */
export function transformObject(object: unknown, c: Conversion, options: TransformOptions): Result<unknown> {
  if (!isObject(object) || object['kind'] === 'Status') return ok(object);
  const apiVersion = `${c.group}/${c.version}`;
  switch (c.kind) {
    case 'Table':
      return toTable(object, c, options);
    case 'PartialObjectMetadata':
      if (isList(object)) {
        return fail(notAcceptableConversion(`you requested PartialObjectMetadata, but the requested object is a list (${String(object['kind'])})`, options));
      }
      return ok(partial(object, apiVersion));
    case 'PartialObjectMetadataList':
      if (!isList(object)) {
        return fail(notAcceptableConversion(`you requested PartialObjectMetadataList, but the requested object is not a list (${String(object['kind'])})`, options));
      }
      return {
        ok: true,
        value: {
          kind: 'PartialObjectMetadataList',
          apiVersion,
          metadata: listMeta(object),
          items: (object['items'] as unknown[]).filter(isObject).map((i) => partial(i, apiVersion)),
        },
      };
  }
}

function notAcceptableConversion(message: string, options: TransformOptions): Status {
  return { ...notAcceptable(options.mediaTypes ?? ['application/json']), message };
}

/** A watch conversion: keeps the state of whether the column definitions went out already. */
export function watchTransformer(c: Conversion, options: TransformOptions): (object: unknown) => Result<unknown> {
  let headersSent = false;
  return (object) => {
    // A single-object conversion applies to each event (a list conversion names the kind of the collection).
    const perEvent: Conversion = c.kind === 'PartialObjectMetadataList' ? { ...c, kind: 'PartialObjectMetadata' } : c;
    const out = transformObject(object, perEvent, { ...options, noHeaders: headersSent });
    if (out.ok && c.kind === 'Table' && isObject(out.value) && out.value['kind'] === 'Table') headersSent = true;
    return out;
  };
}
