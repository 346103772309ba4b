/**
 * CSIDrivers: Name, AttachRequired (true when unset), PodInfoOnMount, StorageCapacity, TokenRequests (audiences,
 * `<unset>`), RequiresRepublish, Modes (`<none>`), Age (printCSIDriver, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

const spec = 'io.k8s.api.storage.v1.CSIDriverSpec';
const boolean = { type: 'boolean' } as const;

/** The csidrivers printer. */
export const csiDriverPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('AttachRequired', spec, 'attachRequired', boolean),
    docColumn('PodInfoOnMount', spec, 'podInfoOnMount', boolean),
    docColumn('StorageCapacity', spec, 'storageCapacity', boolean),
    docColumn('TokenRequests', spec, 'tokenRequests'),
    docColumn('RequiresRepublish', spec, 'requiresRepublish', boolean),
    docColumn('Modes', spec, 'volumeLifecycleModes'),
    ageColumn,
  ],
  cells(d, ctx) {
    const tokenRequests = get(d, 'spec', 'tokenRequests');
    const modes = list(d, 'spec', 'volumeLifecycleModes').map(String).join(',');
    return [
      str(d, 'metadata', 'name'), get(d, 'spec', 'attachRequired') !== false, get(d, 'spec', 'podInfoOnMount') === true,
      get(d, 'spec', 'storageCapacity') === true,
      Array.isArray(tokenRequests) ? tokenRequests.map((t) => str(t, 'audience')).join(',') : '<unset>',
      get(d, 'spec', 'requiresRepublish') === true, modes === '' ? '<none>' : modes, since(get(d, 'metadata', 'creationTimestamp'), ctx.now),
    ];
  },
};
