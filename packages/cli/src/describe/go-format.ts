/**
 * How kubectl's describers turn values into text, where Go's printing decides it: times in `time.RFC1123Z` in the
 * local zone (metav1.Time reads timestamps into local time), label selectors as `labels.Selector.String()` and
 * `metav1.FormatLabelSelector`, label maps as `labels.FormatLabels`, `intstr.IntOrString`, `%v` of string slices
 * (`[a b]`) and maps (`map[k:v]`), and kubectl's `True`/`False` booleans.
 */
import { labelSelectorFromMeta, type LabelRequirement, type MetaLabelSelectorObject } from '@svc-apiserver/api';

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/**
 * Go's `time.RFC1123Z` (`Mon, 02 Jan 2006 15:04:05 -0700`) of a timestamp in the local zone; an unset one is Go's
 * zero time, as kubectl prints it.
 */
export function rfc1123z(ts: unknown): string {
  const d = typeof ts === 'string' && ts !== '' ? new Date(ts) : undefined;
  if (d === undefined || Number.isNaN(d.getTime())) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const offset = -d.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.trunc(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)}`;
  return `${weekdays[d.getDay()]}, ${two(d.getDate())} ${months[d.getMonth()]} ${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${zone}`;
}

/** labels.Requirement.String(). */
function requirementString(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists': return r.key;
    case 'doesNotExist': return `!${r.key}`;
    case 'equals': return `${r.key}=${r.values[0] ?? ''}`;
    case 'notEquals': return `${r.key}!=${r.values[0] ?? ''}`;
    case 'in': return `${r.key} in (${[...r.values].sort().join(',')})`;
    case 'notIn': return `${r.key} notin (${[...r.values].sort().join(',')})`;
    case 'gt': return `${r.key}>${r.values[0] ?? ''}`;
    case 'lt': return `${r.key}<${r.values[0] ?? ''}`;
  }
}

/**
 * `%s` of the selector metav1.LabelSelectorAsSelector makes of an object's selector: its requirements by key,
 * `''` when it selects nothing or everything; undefined when the selector is invalid.
 */
export function selectorString(selector: unknown): string | undefined {
  const parsed = labelSelectorFromMeta(selector as MetaLabelSelectorObject | null | undefined);
  if (!parsed.ok) return undefined;
  return parsed.value === 'nothing' ? '' : parsed.value.requirements.map(requirementString).join(',');
}

/** metav1.FormatLabelSelector: the selector's text, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const text = selectorString(selector);
  return text === undefined ? '<error>' : text === '' ? '<none>' : text;
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, `<none>` when there is none. */
export function formatLabels(labels: unknown): string {
  const map = (labels ?? {}) as Record<string, unknown>;
  const keys = Object.keys(map).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${String(map[k])}`).join(',');
}

/** intstr.IntOrString's String(); `<nil>` when unset. */
export function intOrString(v: unknown): string {
  return v === undefined || v === null ? '<nil>' : String(v);
}

/** Go's `%v` of a string slice: `[a b c]`. */
export function goSlice(values: unknown): string {
  return `[${(Array.isArray(values) ? values : []).map(String).join(' ')}]`;
}

/** Go's `%v` of a map of strings: `map[k:v ...]` by key. */
export function goMap(map: unknown): string {
  const m = (map ?? {}) as Record<string, unknown>;
  return `map[${Object.keys(m).sort().map((k) => `${k}:${String(m[k])}`).join(' ')}]`;
}

/** kubectl's printBool: `True` or `False`. */
export function printBool(v: unknown): string {
  return v === true ? 'True' : 'False';
}

/** kubectl's printBoolPtr: `<unset>` when absent. */
export function printBoolPtr(v: unknown): string {
  return v === undefined || v === null ? '<unset>' : printBool(v);
}

/** `%v` of a value that Go would print as its zero value when absent. */
export function orEmpty(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** `%d` of an integer that Go would print as 0 when absent. */
export function orZero(v: unknown): string {
  return typeof v === 'number' ? String(v) : '0';
}
