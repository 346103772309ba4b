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
  write(level: number, text: string): void;
  flush(): void;
  text(): string;
}

/** A describe writer. */
export function createDescribeWriter(): DescribeWriter {
  const tw = createTabWriter();
  return {
    write: (level, text) => tw.write('  '.repeat(level) + text),
    flush: () => tw.flush(),
    text: () => tw.text(),
  };
}

/** `Title:\tk=v` lines, sorted, `<none>` when empty (kubectl's printLabelsMultiline). */
export function writeLabels(w: DescribeWriter, title: string, labels: Readonly<Record<string, string>> | undefined): void {
  const keys = Object.keys(labels ?? {}).sort();
  w.write(0, `${title}:\t`);
  if (keys.length === 0) {
    w.write(0, '<none>\n');
    return;
  }
  keys.forEach((k, i) => w.write(0, `${i === 0 ? '' : '\t'}${k}=${labels?.[k] ?? ''}\n`));
}

const maxAnnotationLen = 140;

/** kubectl's printAnnotationsMultiline; `skip` names the last-applied annotation of the server's flavour. */
export function writeAnnotations(w: DescribeWriter, title: string, annotations: Readonly<Record<string, string>> | undefined, skip: string): void {
  w.write(0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {}).filter((k) => k !== skip).sort();
  if (keys.length === 0) {
    w.write(0, '<none>\n');
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
  lastTimestamp?: string | null; series?: { count?: number; lastObservedTime?: string }; source?: { component?: string }; reportingController?: string;
};

/** kubectl's DescribeEvents: `Events:\t<none>`, or a table sorted by last timestamp, aligned on its own. */
export function writeEvents(w: DescribeWriter, events: readonly KubeObject[]): void {
  if (events.length === 0) {
    w.write(0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  const sorted = [...events as EventFields[]].sort((a, b) => Date.parse(a.lastTimestamp ?? '') - Date.parse(b.lastTimestamp ?? ''));
  w.write(0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = e.eventTime ? age(e.eventTime) : age(e.firstTimestamp ?? undefined);
    const interval = e.series ? `${age(e.series.lastObservedTime)} (x${e.series.count ?? 0} over ${first})`
      : (e.count ?? 0) > 1 ? `${age(e.lastTimestamp ?? undefined)} (x${e.count ?? 0} over ${first})` : first;
    w.write(1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${e.source?.component || e.reportingController || ''}\t${(e.message ?? '').trim()}\n`);
  }
}
