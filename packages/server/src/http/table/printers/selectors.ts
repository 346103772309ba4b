/**
 * Label selectors as the printers show them: apimachinery's `LabelSelectorAsSelector(...).String()` (requirements
 * sorted by key; `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`) and `metav1.FormatLabelSelector` (the same,
 * `<none>` when empty, `<error>` when invalid). Written here because the selector module parses the query syntax
 * only; it has no formatter for the structured form.
 */
import { get, list, record, str } from '../format.js';

/** The selector string, or undefined when an expression is invalid. */
export function selectorString(selector: unknown): string | undefined {
  if (selector === null || typeof selector !== 'object') return '';
  const reqs: { key: string; text: string }[] = [];
  const labels = record(selector, 'matchLabels');
  for (const key of Object.keys(labels)) reqs.push({ key, text: `${key}=${String(labels[key])}` });
  for (const expr of list(selector, 'matchExpressions')) {
    const key = str(expr, 'key');
    const values = list(expr, 'values').map(String).sort();
    switch (get(expr, 'operator')) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return undefined;
        reqs.push({ key, text: `${key} ${get(expr, 'operator') === 'In' ? 'in' : 'notin'} (${values.join(',')})` });
        break;
      case 'Exists':
        if (values.length > 0) return undefined;
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        reqs.push({ key, text: `!${key}` });
        break;
      default:
        return undefined;
    }
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector. */
export function formatLabelSelector(selector: unknown): string {
  const s = selectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

/** A `*bool` as the printers show it: `True`, `False`, `<unset>`. */
export function boolPtr(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

/** An int-or-string field as Go's IntOrString.String() prints it. */
export function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
}

/** Up to `max` items joined by commas, then `+ N more...`; `<unset>` when empty (listWithMoreString). */
export function listWithMore(items: readonly string[], max: number): string {
  const text = items.slice(0, max).join(',');
  if (items.length > max) return `${text} + ${items.length - max} more...`;
  return text === '' ? '<unset>' : text;
}
