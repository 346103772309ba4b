/**
 * Events (core v1 and events.svc.io/v1, which kube-apiserver prints with the same printer): Last Seen, Type,
 * Reason, Object, Message; wide: Subobject, Source, First Seen, Count, Name (printEvent).
 */
import { docColumn, type ColumnSpec, type PrintContext, type TablePrinter } from '../printer.js';
import { get, num, since, str } from '../format.js';

const event = 'io.k8s.api.core.v1.Event';

/** The fields the printer reads, in the core v1 shape. */
interface EventView {
  readonly firstTimestamp: unknown;
  readonly lastTimestamp: unknown;
  readonly eventTime: unknown;
  readonly seriesLast: unknown;
  readonly seriesCount: number | undefined;
  readonly count: number;
  readonly kind: string;
  readonly name: string;
  readonly fieldPath: string;
  readonly type: string;
  readonly reason: string;
  readonly component: string;
  readonly host: string;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly message: string;
  readonly objectName: string;
}

const columns: readonly ColumnSpec[] = [
  docColumn('Last Seen', event, 'lastTimestamp'),
  docColumn('Type', event, 'type'),
  docColumn('Reason', event, 'reason'),
  docColumn('Object', event, 'involvedObject'),
  docColumn('Subobject', 'io.k8s.api.core.v1.ObjectReference', 'fieldPath', { priority: 1 }),
  docColumn('Source', event, 'source', { priority: 1 }),
  docColumn('Message', event, 'message'),
  docColumn('First Seen', event, 'firstTimestamp', { priority: 1 }),
  docColumn('Count', event, 'count', { priority: 1 }),
  docColumn('Name', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'name', { priority: 1, format: 'name' }),
];

function cells(e: EventView, ctx: PrintContext): unknown[] {
  const present = (t: unknown): boolean => typeof t === 'string' && t !== '';
  let first = since(e.firstTimestamp, ctx.now);
  if (!present(e.firstTimestamp)) first = since(e.eventTime, ctx.now);
  let last = since(e.lastTimestamp, ctx.now);
  if (!present(e.lastTimestamp)) last = first;
  let count = e.count;
  if (e.seriesCount !== undefined) {
    last = since(e.seriesLast, ctx.now);
    count = e.seriesCount;
  } else if (count === 0) {
    count = 1;
  }
  const kind = e.kind.toLowerCase();
  const target = e.name !== '' ? `${kind}/${e.name}` : kind;
  let component = e.component;
  let host = e.host;
  if (component === '' && host === '') {
    component = e.reportingController;
    host = e.reportingInstance;
  }
  const source = host !== '' ? `${component}, ${host}` : component;
  return [last, e.type, e.reason, target, e.fieldPath, source, e.message.trim(), first, count, e.objectName];
}

/** The core v1 events printer. */
export const eventPrinter: TablePrinter = {
  columns,
  cells: (e, ctx) => cells({
    firstTimestamp: get(e, 'firstTimestamp'), lastTimestamp: get(e, 'lastTimestamp'), eventTime: get(e, 'eventTime'),
    seriesLast: get(e, 'series', 'lastObservedTime'), seriesCount: get(e, 'series') !== undefined ? num(e, 'series', 'count') : undefined,
    count: num(e, 'count'), kind: str(e, 'involvedObject', 'kind'), name: str(e, 'involvedObject', 'name'),
    fieldPath: str(e, 'involvedObject', 'fieldPath'), type: str(e, 'type'), reason: str(e, 'reason'),
    component: str(e, 'source', 'component'), host: str(e, 'source', 'host'), reportingController: str(e, 'reportingComponent'),
    reportingInstance: str(e, 'reportingInstance'), message: str(e, 'message'), objectName: str(e, 'metadata', 'name'),
  }, ctx),
};

/** The events.svc.io/v1 printer: the same columns over the renamed fields (`regarding`, `note`, `deprecated*`). */
export const eventV1Printer: TablePrinter = {
  columns,
  cells: (e, ctx) => cells({
    firstTimestamp: get(e, 'deprecatedFirstTimestamp'), lastTimestamp: get(e, 'deprecatedLastTimestamp'), eventTime: get(e, 'eventTime'),
    seriesLast: get(e, 'series', 'lastObservedTime'), seriesCount: get(e, 'series') !== undefined ? num(e, 'series', 'count') : undefined,
    count: num(e, 'deprecatedCount'), kind: str(e, 'regarding', 'kind'), name: str(e, 'regarding', 'name'),
    fieldPath: str(e, 'regarding', 'fieldPath'), type: str(e, 'type'), reason: str(e, 'reason'),
    component: str(e, 'deprecatedSource', 'component'), host: str(e, 'deprecatedSource', 'host'),
    reportingController: str(e, 'reportingController'), reportingInstance: str(e, 'reportingInstance'), message: str(e, 'note'),
    objectName: str(e, 'metadata', 'name'),
  }, ctx),
};
