/**
 * Where a log line was written from (klog's `file.go:line`, found with runtime.Caller): the first frame of the
 * stack outside the logging module and outside files registered as helpers (files whose functions only pass
 * messages on, as the server's log adapters do; Go's testing.T.Helper is the same idea). The frames are read from
 * V8's structured stack (CallSite objects), only when a line is actually written.
 */
import { fileURLToPath } from 'node:url';
import { basename, dirname } from 'node:path';

/** A caller: the file's base name, its directory's base name and the line. */
export interface Caller {
  readonly file: string;
  readonly dir: string;
  readonly line: number;
}

const ownDir = dirname(fileURLToPath(import.meta.url));
const helperFiles = new Set<string>();

/** Marks a module (its `import.meta.url`) as a helper: its frames are skipped when looking for the caller. */
export function markLogHelper(moduleUrl: string): void {
  helperFiles.add(fileURLToPath(moduleUrl));
}

const toPath = (name: string): string => (name.startsWith('file:') ? fileURLToPath(name) : name);

/** The caller of the logger, or undefined when the stack shows none (a call from native code). */
export function findCaller(): Caller | undefined {
  const original = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  let sites: NodeJS.CallSite[] = [];
  try {
    Error.stackTraceLimit = 24;
    Error.prepareStackTrace = (_error, stack) => stack;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, findCaller);
    sites = (holder.stack as NodeJS.CallSite[] | undefined) ?? [];
  } finally {
    Error.prepareStackTrace = original;
    Error.stackTraceLimit = limit;
  }
  for (const site of sites) {
    const name = site.getFileName();
    if (name === undefined || name === null || name.startsWith('node:')) continue;
    const path = toPath(name);
    if ((dirname(path) === ownDir && !path.endsWith('.test.js')) || helperFiles.has(path)) continue;
    return { file: basename(path), dir: basename(dirname(path)), line: site.getLineNumber() ?? 0 };
  }
  return undefined;
}

/** `file:line` (the text format's). */
export function shortCaller(caller: Caller | undefined): string {
  return caller === undefined ? '???:1' : `${caller.file}:${caller.line}`;
}

/** `dir/file:line` (the JSON format's, zap's short caller). */
export function packageCaller(caller: Caller | undefined): string {
  return caller === undefined ? '???:1' : `${caller.dir}/${caller.file}:${caller.line}`;
}
