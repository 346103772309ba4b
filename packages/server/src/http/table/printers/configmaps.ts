/** ConfigMaps: Name, Data (number of keys in data and binaryData), Age (printConfigMap). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, record, since, str } from '../format.js';

/** The configmaps printer. */
export const configMapPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Data', 'io.k8s.api.core.v1.ConfigMap', 'data'), ageColumn],
  cells: (cm, ctx) => [
    str(cm, 'metadata', 'name'),
    Object.keys(record(cm, 'data')).length + Object.keys(record(cm, 'binaryData')).length,
    since(get(cm, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
