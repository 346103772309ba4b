/**
 * ControllerRevisions: Name, Controller (`<kind>.<group>/<name>` of the controller owner, lower-cased; `<none>`),
 * Revision, Age (printControllerRevision, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, num, since, str } from '../format.js';

function controllerOf(obj: Record<string, unknown>): string {
  const ref = list(obj, 'metadata', 'ownerReferences').find((r) => get(r, 'controller') === true);
  if (ref === undefined) return '<none>';
  const apiVersion = str(ref, 'apiVersion');
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const kind = str(ref, 'kind');
  // GroupKind.String(): `Kind` in the core group, `Kind.group` otherwise; an empty GroupKind prints the bare name.
  if (group === '' && kind === '') return str(ref, 'name');
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${str(ref, 'name')}`;
}

/** The controllerrevisions printer. */
export const controllerRevisionPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Controller', description: 'Controller of the object' },
    docColumn('Revision', 'io.k8s.api.apps.v1.ControllerRevision', 'revision'),
    ageColumn,
  ],
  cells: (cr, ctx) => [str(cr, 'metadata', 'name'), controllerOf(cr), num(cr, 'revision'), since(get(cr, 'metadata', 'creationTimestamp'), ctx.now)],
};
