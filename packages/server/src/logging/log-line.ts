/**
 * One log line before it is encoded: klog's severity, the verbosity it was logged at, the message, whether it was
 * a structured call (InfoS, ErrorS: the message is a constant and the details are key/value pairs) or a plain one
 * (Info, Error: the message says it all), the error of an ErrorS, and the pairs.
 */
import type { Caller } from './caller.js';

/** klog's severities. */
export type Severity = 'info' | 'warning' | 'error';

/** Key/value pairs of a structured line, in the order given. */
export type LogValues = Readonly<Record<string, unknown>>;

/** A line to write. */
export interface LogLine {
  readonly severity: Severity;
  /** The `V(n)` level of an info line (0 for warnings and errors). */
  readonly level: number;
  readonly message: string;
  readonly structured: boolean;
  /** The error of an ErrorS line (written as `err`). */
  readonly error?: unknown;
  readonly values: LogValues;
  /** Milliseconds since the epoch, with the sub-millisecond fraction the clock gives. */
  readonly time: number;
  readonly pid: number;
  readonly caller: Caller | undefined;
}

/** The text of an error value as klog and zap print it: its message (a thrown non-Error as its string). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
