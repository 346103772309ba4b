/**
 * component-base's JSON format (`--logging-format=json`, its zap encoder): one object per line with `ts` (epoch
 * milliseconds, with a fraction), `caller` (`dir/file:line`), `msg`, then `v` (the verbosity of an info line;
 * warnings and errors have none) or `err` (an ErrorS's error), then the line's key/value pairs.
 */
import { packageCaller } from './caller.js';
import { errorText, type LogLine } from './log-line.js';

/** Values JSON cannot hold as they are (bigints, errors) in the form zap writes them. */
function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Error) return value.message;
  return value;
}

/** The line as component-base's JSON format writes it, newline included. */
export function jsonLine(line: LogLine): string {
  const record: Record<string, unknown> = {
    ts: line.time,
    caller: packageCaller(line.caller),
    // A plain line says its error in its message, as klog.Error's formatted text does; a structured one as `err`.
    msg: line.error === undefined || line.structured ? line.message : `${line.message}: ${errorText(line.error)}`,
  };
  if (line.severity === 'info') record['v'] = line.level;
  if (line.error !== undefined && line.structured) record['err'] = errorText(line.error);
  for (const [key, value] of Object.entries(line.values)) {
    if (!(key in record)) record[key] = jsonValue(value);
  }
  try {
    return `${JSON.stringify(record)}\n`;
  } catch {
    // A value JSON cannot write (a cycle): the line is kept, the values are not.
    return `${JSON.stringify({ ts: record['ts'], caller: record['caller'], msg: line.message, v: line.level })}\n`;
  }
}
