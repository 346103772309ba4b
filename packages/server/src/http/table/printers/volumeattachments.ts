/** VolumeAttachments: Name, Attacher, PV, Node, Attached, Age (printVolumeAttachment, 1.27). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, since, str } from '../format.js';

const storage = 'io.k8s.api.storage.v1';

/** The volumeattachments printer. */
export const volumeAttachmentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Attacher', `${storage}.VolumeAttachmentSpec`, 'attacher', { format: 'name' }),
    docColumn('PV', `${storage}.VolumeAttachmentSource`, 'persistentVolumeName'),
    docColumn('Node', `${storage}.VolumeAttachmentSpec`, 'nodeName'),
    docColumn('Attached', `${storage}.VolumeAttachmentStatus`, 'attached', { type: 'boolean' }),
    ageColumn,
  ],
  cells: (va, ctx) => [
    str(va, 'metadata', 'name'), str(va, 'spec', 'attacher'), str(va, 'spec', 'source', 'persistentVolumeName'), str(va, 'spec', 'nodeName'),
    get(va, 'status', 'attached') === true, since(get(va, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
