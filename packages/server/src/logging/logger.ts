/**
 * The server's logger, klog's calls over component-base's formats: `info` and `error` write a plain message,
 * `infoS` and `errorS` a structured one (a constant message and key/value pairs); `info`/`infoS` take the `V(n)`
 * level the line needs (`-v`), warnings and errors are always written. Lines go to one stream (stderr) in the
 * format `--logging-format` chose. The server's older `log(message, error?)` callbacks are {@link logFunction}.
 */
import { findCaller } from './caller.js';
import { jsonLine } from './json-lines.js';
import { klogTextLine } from './klog-text.js';
import type { LogLine, LogValues, Severity } from './log-line.js';
import type { LoggingFormat } from './logging-flags.js';

export type { LogValues } from './log-line.js';

/** A logger. */
export interface Logger {
  readonly format: LoggingFormat;
  readonly verbosity: number;
  /** klog's `V(level).Enabled()`: whether lines at that level are written. */
  enabled(level: number): boolean;
  /** klog.Info / V(level).Info: a plain message. */
  info(message: string, level?: number): void;
  /** klog.InfoS / V(level).InfoS: a structured message. */
  infoS(message: string, values?: LogValues, level?: number): void;
  /** klog.Warning. */
  warning(message: string): void;
  /** klog.Error: a plain message, with the error's text after it when given. */
  error(message: string, error?: unknown): void;
  /** klog.ErrorS: a structured message with its error. */
  errorS(error: unknown, message: string, values?: LogValues): void;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  readonly format: LoggingFormat;
  readonly verbosity: number;
  /** Where lines go (default stderr). */
  readonly write?: (line: string) => void;
  /** Epoch milliseconds with a fraction (default: the high-resolution clock). */
  readonly now?: () => number;
  readonly pid?: number;
}

/** Creates a logger. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const pid = options.pid ?? process.pid;
  const encode = options.format === 'json' ? jsonLine : klogTextLine;
  const emit = (severity: Severity, level: number, message: string, structured: boolean, values: LogValues, error?: unknown): void => {
    const line: LogLine = {
      severity, level, message, structured, values, time: now(), pid, caller: findCaller(),
      ...(error === undefined ? {} : { error }),
    };
    write(encode(line));
  };
  const enabled = (level: number): boolean => level <= options.verbosity;
  return {
    format: options.format,
    verbosity: options.verbosity,
    enabled,
    info(message, level = 0) {
      if (enabled(level)) emit('info', level, message, false, {});
    },
    infoS(message, values = {}, level = 0) {
      if (enabled(level)) emit('info', level, message, true, values);
    },
    warning(message) {
      emit('warning', 0, message, false, {});
    },
    error(message, error) {
      emit('error', 0, message, false, {}, error);
    },
    errorS(error, message, values = {}) {
      emit('error', 0, message, true, values, error);
    },
  };
}

/**
 * The `log(message, error?)` callback the server's parts take, over a logger: a message alone is an info line at
 * verbosity 0; a message with an error is an error line, with the error's stack when it has one (as the server
 * always printed it: a failure report needs it).
 */
export function logFunction(logger: Logger): (message: string, error?: unknown) => void {
  return (message, error) => {
    if (error === undefined) logger.info(message);
    else if (error instanceof Error && error.stack !== undefined) logger.errorS(error, message, { stack: error.stack });
    else logger.error(message, error);
  };
}
