/**
 * EndpointSlices: Name, AddressType, Ports (port, else name, else `*`), Endpoints (addresses), Age; lists show three
 * items then `+ N more...`, `<unset>` when empty (printEndpointSlice, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';
import { listWithMore } from './selectors.js';

const slice = 'io.k8s.api.discovery.v1.EndpointSlice';
const max = 3;

function port(p: unknown): string {
  if (typeof get(p, 'port') === 'number') return String(get(p, 'port'));
  if (typeof get(p, 'name') === 'string') return str(p, 'name');
  return '*';
}

/** The endpointslices printer. */
export const endpointSlicePrinter: TablePrinter = {
  columns: [nameColumn, docColumn('AddressType', slice, 'addressType'), docColumn('Ports', slice, 'ports'), docColumn('Endpoints', slice, 'endpoints'), ageColumn],
  cells: (es, ctx) => [
    str(es, 'metadata', 'name'), str(es, 'addressType'), listWithMore(list(es, 'ports').map(port), max),
    listWithMore(list(es, 'endpoints').flatMap((e) => list(e, 'addresses').map(String)), max), since(get(es, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
