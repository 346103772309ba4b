/**
 * Field paths as structured-merge-diff names them. A path is a list of path elements, each written as its FieldsV1
 * key: `f:<name>` (a struct field or map key), `k:<json object>` (an item of an associative list, by its key fields,
 * sorted by name), `v:<json value>` (an item of a set), `i:<index>` (an item of a list with no identity).
 * A path is stored as its elements joined by NUL, so a set of paths is a plain `Set<string>`.
 */

/** The separator between path elements in a stored path (never part of an element of a valid object). */
const separator = '\u0000';

/** The root path (the object itself). */
export const rootPath = '';

/** `f:<name>`. */
export function fieldElement(name: string): string {
  return `f:${name}`;
}

/** `v:<json>`: a set item by its value. */
export function valueElement(value: unknown): string {
  return `v:${JSON.stringify(value)}`;
}

/** `i:<n>`: a list item by its position. */
export function indexElement(index: number): string {
  return `i:${index}`;
}

/**
 * `k:{"a":1,"b":"x"}`: an associative list item by its key fields (sorted by name); a missing key field takes the
 * schema's default for it (structured-merge-diff keys `{containerPort: 80}` as `{containerPort: 80, protocol: TCP}`),
 * and is left out when it has none.
 */
export function keyElement(item: Readonly<Record<string, unknown>>, keys: readonly string[], defaults: Readonly<Record<string, unknown>> = {}): string {
  const sorted = [...keys].sort();
  const fields: Record<string, unknown> = {};
  for (const k of sorted) {
    if (item[k] !== undefined) fields[k] = item[k];
    else if (defaults[k] !== undefined) fields[k] = defaults[k];
  }
  return `k:${JSON.stringify(fields)}`;
}

/** A path extended by one element. */
export function childPath(path: string, element: string): string {
  return path === rootPath ? element : path + separator + element;
}

/** The elements of a stored path. */
export function pathElements(path: string): string[] {
  return path === rootPath ? [] : path.split(separator);
}

/** A stored path from its elements. */
export function pathFromElements(elements: readonly string[]): string {
  return elements.join(separator);
}

/** Every proper prefix of a path, shortest first (the root excluded). */
export function pathPrefixes(path: string): string[] {
  const out: string[] = [];
  let at = path.indexOf(separator);
  while (at >= 0) {
    out.push(path.slice(0, at));
    at = path.indexOf(separator, at + 1);
  }
  return out;
}

/** True when `path` lies under `prefix` (or is it). */
export function isUnder(path: string, prefix: string): boolean {
  return prefix === rootPath || path === prefix || path.startsWith(prefix + separator);
}

/** One element as structured-merge-diff prints it in messages: `.name`, `[name="x"]`, `[="v"]`, `[0]`. */
export function elementString(element: string): string {
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const fields = JSON.parse(body) as Record<string, unknown>;
      return `[${Object.entries(fields).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    }
    case 'v':
      return `[=${body}]`;
    default:
      return `[${body}]`;
  }
}

/** A path as structured-merge-diff prints it: `.spec.containers[name="app"].image`. */
export function pathString(path: string): string {
  return pathElements(path).map(elementString).join('');
}
