/**
 * The logging flags of component-base (`--logging-format`, `-v`/`--v`), as kube-apiserver takes them: `text` is
 * klog's line format, `json` component-base's JSON lines; the verbosity decides which `V(n)` lines are written.
 */

/** A log line format. */
export type LoggingFormat = 'text' | 'json';

/** The formats `--logging-format` takes. */
export const loggingFormats: readonly LoggingFormat[] = ['text', 'json'];

/** The logging flags. */
export interface LoggingFlags {
  /** `--logging-format`: `text` (klog's header and key="value" pairs) or `json` (one JSON object per line). */
  readonly loggingFormat: LoggingFormat;
  /** `-v`/`--v`: the verbosity; lines logged at a level above it are not written. */
  readonly verbosity: number;
}

/** component-base's defaults: text at verbosity 0. */
export const defaultLoggingFlags: LoggingFlags = { loggingFormat: 'text', verbosity: 0 };

/** A `--logging-format` value, or undefined when it is not one (kube refuses the start then). */
export function parseLoggingFormat(value: string): LoggingFormat | undefined {
  return (loggingFormats as readonly string[]).includes(value) ? (value as LoggingFormat) : undefined;
}
