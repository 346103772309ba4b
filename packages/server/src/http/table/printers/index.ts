/**
 * The printers by kind: `<neutral group key>/<Kind>` (core is `/Pod`). Kinds without one get the default
 * Name / Created At table.
 */
import type { TablePrinter } from '../printer.js';
import { configMapPrinter } from './configmaps.js';
import { endpointsPrinter } from './endpoints.js';
import { eventPrinter, eventV1Printer } from './events.js';
import { leasePrinter } from './leases.js';
import { limitRangePrinter } from './limitranges.js';
import { namespacePrinter } from './namespaces.js';
import { nodePrinter } from './nodes.js';
import { persistentVolumeClaimPrinter } from './persistentvolumeclaims.js';
import { persistentVolumePrinter } from './persistentvolumes.js';
import { podPrinter } from './pods.js';
import { podTemplatePrinter } from './podtemplates.js';
import { replicationControllerPrinter } from './replicationcontrollers.js';
import { resourceQuotaPrinter } from './resourcequotas.js';
import { secretPrinter } from './secrets.js';
import { serviceAccountPrinter } from './serviceaccounts.js';
import { servicePrinter } from './services.js';

/** Printer per `<group key>/<Kind>`. */
export const printers: ReadonlyMap<string, TablePrinter> = new Map<string, TablePrinter>([
  ['/Pod', podPrinter],
  ['/Service', servicePrinter],
  ['/Namespace', namespacePrinter],
  ['/ConfigMap', configMapPrinter],
  ['/Secret', secretPrinter],
  ['/ServiceAccount', serviceAccountPrinter],
  ['/Node', nodePrinter],
  ['/Event', eventPrinter],
  ['/Endpoints', endpointsPrinter],
  ['/LimitRange', limitRangePrinter],
  ['/ResourceQuota', resourceQuotaPrinter],
  ['/PodTemplate', podTemplatePrinter],
  ['/ReplicationController', replicationControllerPrinter],
  ['/PersistentVolume', persistentVolumePrinter],
  ['/PersistentVolumeClaim', persistentVolumeClaimPrinter],
  ['coordination/Lease', leasePrinter],
  ['events/Event', eventV1Printer],
]);
