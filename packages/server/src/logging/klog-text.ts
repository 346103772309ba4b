/**
 * klog's text format (`--logging-format=text`): the header `Lmmdd hh:mm:ss.uuuuuu  pid file:line] ` (L is I, W or
 * E; the pid right-aligned in seven columns), then the message: as it is for a plain line, quoted for a structured
 * one, followed by the ` key=value` pairs (strings quoted as Go's %q does, numbers and booleans bare, an error as its
 * quoted message, other values as JSON; a string with line breaks in klog's `key=<` block form).
 * Written by hand: no Node library writes klog's header or its pair quoting.
 */
import { shortCaller } from './caller.js';
import { errorText, type LogLine } from './log-line.js';

const two = (n: number): string => String(n).padStart(2, '0');

/** The header of a line, in local time as klog writes it. */
function header(line: LogLine): string {
  const t = new Date(Math.floor(line.time));
  const letter = line.severity === 'error' ? 'E' : line.severity === 'warning' ? 'W' : 'I';
  const micros = String(Math.floor((line.time % 1000) * 1000)).padStart(6, '0');
  const clock = `${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}.${micros}`;
  return `${letter}${two(t.getMonth() + 1)}${two(t.getDate())} ${clock} ${String(line.pid).padStart(7, ' ')} ${shortCaller(line.caller)}] `;
}

/** One value of a key/value pair. */
function textValue(value: unknown): string {
  if (typeof value === 'string') {
    if (!value.includes('\n')) return JSON.stringify(value);
    // klog's multi-line form: each line indented by a tab, the block closed by ' >'.
    return `<\n${value.replace(/\n$/, '').split('\n').map((l) => `\t${l}`).join('\n')}\n >`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return '<nil>';
  if (value instanceof Error) return JSON.stringify(value.message);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return JSON.stringify(String(value));
  }
}

/** The line as klog's text format writes it, newline included. */
export function klogTextLine(line: LogLine): string {
  let out = header(line);
  if (!line.structured) {
    out += line.message;
    if (line.error !== undefined) out += `: ${errorText(line.error)}`;
    return `${out.replace(/\n+$/, '')}\n`;
  }
  out += JSON.stringify(line.message);
  if (line.error !== undefined) out += ` err=${JSON.stringify(errorText(line.error))}`;
  for (const [key, value] of Object.entries(line.values)) out += ` ${key}=${textValue(value)}`;
  return `${out}\n`;
}
