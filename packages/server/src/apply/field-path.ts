/**
 * Field paths as structured-merge-diff names them. A path is a list of path elements, each written as its FieldsV1
 * key: `f:<name>` (a struct field or map key), `k:<json object>` (an item of an associative list, by its key fields,
 * sorted by name), `v:<json value>` (an item of a set), `i:<index>` (an item of a list with no identity). Paths are
 * kept as element lists, never joined into one string: a field name may hold any character.
 */

/** A field path: its elements from the root. */
export type FieldPath = readonly string[];

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

/** True for a struct field or map key element. */
export function isFieldElement(element: string): boolean {
  return element.charCodeAt(0) === 0x66 /* f */ && element.charCodeAt(1) === 0x3a /* : */;
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
export function pathString(path: FieldPath): string {
  return path.map(elementString).join('');
}
