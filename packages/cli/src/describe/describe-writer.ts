/**
 * The pieces every kubectl describer prints with: a writer that indents by level (two spaces a level) into Go's
 * tabwriter, labels and annotations as multi-line blocks (the last-applied annotation left out, long or
 * multi-line values on lines of their own), and the Events table.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { age } from '../age.js';
import { createTabWriter } from './tab-writer.js';

/** kubectl's PrefixWriter over a tabwriter. */
export interface DescribeWriter {
  /** Writes `text` after two spaces a level. */
  write(level: number, text: string): void;
  /** kubectl's WriteLine: `text` and a line break, at the writer's own indent (none unless nested). */
  writeLine(text: string): void;
  /** Aligns what was written so far; later lines start new blocks. */
  flush(): void;
  text(): string;
  /** kubectl's NestedPrefixWriter: every write `indent` levels deeper, into the same text. */
  nested(indent: number): DescribeWriter;
}

/** A describe writer. */
export function createDescribeWriter(): DescribeWriter {
  const tw = createTabWriter();
  const at = (indent: number): DescribeWriter => ({
    write: (level, text) => tw.write('  '.repeat(level + indent) + text),
    writeLine: (text) => tw.write(`${'  '.repeat(indent)}${text}\n`),
    flush: () => tw.flush(),
    text: () => tw.text(),
    nested: (more) => at(indent + more),
  });
  return at(0);
}

/**
 * kubectl's printLabelsMultilineWithIndent: `Title:\tk=v` lines by key, later ones after `indent` and a tab,
 * `<none>` when empty.
 */
export function writeLabels(w: DescribeWriter, title: string, labels: unknown, indent = ''): void {
  const map = (labels ?? {}) as Readonly<Record<string, unknown>>;
  const keys = Object.keys(map).sort();
  w.write(0, `${indent}${title}:\t`);
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => w.write(0, `${i === 0 ? '' : `${indent}\t`}${k}=${String(map[k])}\n`));
}

const maxAnnotationLen = 140;

/** kubectl's printAnnotationsMultiline; `skip` names the last-applied annotation of the server's flavour. */
export function writeAnnotations(w: DescribeWriter, title: string, annotations: Readonly<Record<string, string>> | undefined, skip: string): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {}).filter((k) => k !== skip).sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) w.write(0, '\t');
    const value = (annotations?.[key] ?? '').replace(/\n$/, '');
    if (value.length + key.length + 2 > maxAnnotationLen || value.includes('\n')) {
      w.write(0, `${key}:\n`);
      for (const line of value.split('\n')) w.write(0, `\t  ${line.length > maxAnnotationLen - 2 ? `${line.slice(0, maxAnnotationLen - 2)}...` : line}\n`);
    } else {
      w.write(0, `${key}: ${value}\n`);
    }
  });
}

/** A core/v1 Event, as far as the table reads it. */
type EventFields = KubeObject & {
  type?: string; reason?: string; message?: string; count?: number; eventTime?: string | null; firstTimestamp?: string | null;
  lastTimestamp?: string | null; series?: { count?: number; lastObservedTime?: string }; source?: { component?: string }; reportingComponent?: string;
};

/** kubectl's DescribeEvents: `Events:\t<none>`, or a table sorted by last timestamp, aligned on its own. */
export function writeEvents(w: DescribeWriter, events: readonly KubeObject[]): void {
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  // by last timestamp, an unset one (Go's zero time) first
  const last = (e: EventFields): number => (e.lastTimestamp ? Date.parse(e.lastTimestamp) : -Infinity);
  const sorted = [...events as EventFields[]].sort((a, b) => (last(a) < last(b) ? -1 : last(a) > last(b) ? 1 : 0));
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = e.eventTime ? age(e.eventTime) : age(e.firstTimestamp ?? undefined);
    const interval = e.series ? `${age(e.series.lastObservedTime)} (x${e.series.count ?? 0} over ${first})`
      : (e.count ?? 0) > 1 ? `${age(e.lastTimestamp ?? undefined)} (x${e.count ?? 0} over ${first})` : first;
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${e.source?.component || e.reportingComponent || ''}\t${(e.message ?? '').trim()}\n`);
  }
}
