/** CSIStorageCapacities: Name, StorageClassName, Capacity (`<unset>`); upstream prints no Age (printCSIStorageCapacity, 1.27). */
import { docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, quantity, str } from '../format.js';

const capacity = 'io.k8s.api.storage.v1.CSIStorageCapacity';

/** The csistoragecapacities printer. */
export const csiStorageCapacityPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('StorageClassName', capacity, 'storageClassName'), docColumn('Capacity', capacity, 'capacity')],
  cells: (c) => [str(c, 'metadata', 'name'), str(c, 'storageClassName'), get(c, 'capacity') === undefined ? '<unset>' : quantity(get(c, 'capacity'))],
};
