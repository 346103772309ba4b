/** Reading managedFields entries in end-to-end tests: an entry's fields as the leaf paths of its FieldsV1 set. */

/** A FieldsV1 set. */
export type Fields = { [key: string]: Fields };

/** One managedFields entry, as the tests read it. */
export interface Entry { manager: string; operation: string; apiVersion: string; fieldsV1: Fields }

/** The leaf paths of a FieldsV1 set (its `.` markers left out), each path joined by spaces, sorted. */
export function leaves(fields: Fields | undefined, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(fields ?? {})) {
    if (key === '.') continue;
    const path = prefix === '' ? key : `${prefix} ${key}`;
    if (Object.keys(child).some((k) => k !== '.')) out.push(...leaves(child, path));
    else out.push(path);
  }
  return out.sort();
}
