/**
 * The printers of the resources kube-apiserver 1.27 prints with their own columns, keyed by typed group-resource.
 * Kinds without one get the default Name / Created At table, as upstream has no printer for them (Roles,
 * ClusterRoles, CustomResourceDefinitions); a test holds the table to kube's list.
 */
import { generatedResources } from '../../../schema/generated-data.js';
import { entryFor, type ResourceTable } from '../../../schema/resource-keys.js';
import type { TablePrinter } from '../printer.js';
import { configMapPrinter } from './configmaps.js';
import { apiServicePrinter } from './apiservices.js';
import { certificateSigningRequestPrinter } from './certificatesigningrequests.js';
import { clusterRoleBindingPrinter } from './clusterrolebindings.js';
import { componentStatusPrinter } from './componentstatuses.js';
import { controllerRevisionPrinter } from './controllerrevisions.js';
import { cronJobPrinter } from './cronjobs.js';
import { csiDriverPrinter } from './csidrivers.js';
import { csiNodePrinter } from './csinodes.js';
import { csiStorageCapacityPrinter } from './csistoragecapacities.js';
import { daemonSetPrinter } from './daemonsets.js';
import { deploymentPrinter } from './deployments.js';
import { endpointSlicePrinter } from './endpointslices.js';
import { flowSchemaPrinter } from './flowschemas.js';
import { horizontalPodAutoscalerPrinter } from './horizontalpodautoscalers.js';
import { ingressClassPrinter } from './ingressclasses.js';
import { ingressPrinter } from './ingresses.js';
import { jobPrinter } from './jobs.js';
import { webhookConfigurationPrinter } from './mutatingwebhookconfigurations.js';
import { networkPolicyPrinter } from './networkpolicies.js';
import { podDisruptionBudgetPrinter } from './poddisruptionbudgets.js';
import { priorityClassPrinter } from './priorityclasses.js';
import { priorityLevelConfigurationPrinter } from './prioritylevelconfigurations.js';
import { replicaSetPrinter } from './replicasets.js';
import { roleBindingPrinter } from './rolebindings.js';
import { runtimeClassPrinter } from './runtimeclasses.js';
import { statefulSetPrinter } from './statefulsets.js';
import { storageClassPrinter } from './storageclasses.js';
import { validatingWebhookConfigurationPrinter } from './validatingwebhookconfigurations.js';
import { volumeAttachmentPrinter } from './volumeattachments.js';
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

/** The printers by resource (kube-apiserver prints by kind; every version of a resource has the same kind). */
export const printerTable: ResourceTable<TablePrinter> = {
  'core/pods': podPrinter,
  'core/services': servicePrinter,
  'core/namespaces': namespacePrinter,
  'core/configmaps': configMapPrinter,
  'core/secrets': secretPrinter,
  'core/serviceaccounts': serviceAccountPrinter,
  'core/nodes': nodePrinter,
  'core/events': eventPrinter,
  'core/endpoints': endpointsPrinter,
  'core/limitranges': limitRangePrinter,
  'core/resourcequotas': resourceQuotaPrinter,
  'core/podtemplates': podTemplatePrinter,
  'core/replicationcontrollers': replicationControllerPrinter,
  'core/persistentvolumes': persistentVolumePrinter,
  'core/persistentvolumeclaims': persistentVolumeClaimPrinter,
  'coordination/leases': leasePrinter,
  'events/events': eventV1Printer,
  'core/componentstatuses': componentStatusPrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerPrinter,
  'networking/ingresses': ingressPrinter,
  'networking/ingressclasses': ingressClassPrinter,
  'networking/networkpolicies': networkPolicyPrinter,
  'policy/poddisruptionbudgets': podDisruptionBudgetPrinter,
  'rbac.authorization/rolebindings': roleBindingPrinter,
  'rbac.authorization/clusterrolebindings': clusterRoleBindingPrinter,
  'storage/storageclasses': storageClassPrinter,
  'storage/csidrivers': csiDriverPrinter,
  'storage/csinodes': csiNodePrinter,
  'storage/volumeattachments': volumeAttachmentPrinter,
  'storage/csistoragecapacities': csiStorageCapacityPrinter,
  'scheduling/priorityclasses': priorityClassPrinter,
  'node/runtimeclasses': runtimeClassPrinter,
  'discovery/endpointslices': endpointSlicePrinter,
  'certificates/certificatesigningrequests': certificateSigningRequestPrinter,
  'admissionregistration/mutatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration/validatingwebhookconfigurations': validatingWebhookConfigurationPrinter,
  'apiregistration/apiservices': apiServicePrinter,
  'flowcontrol.apiserver/flowschemas': flowSchemaPrinter,
  'flowcontrol.apiserver/prioritylevelconfigurations': priorityLevelConfigurationPrinter,
};

/**
 * The printers by `<group key>/<Kind>` (core is `/Pod`), as a response is printed: from its apiVersion and kind.
 * Built from {@link printerTable} and the kinds of the built-in resources.
 */
export const printers: ReadonlyMap<string, TablePrinter> = new Map(
  generatedResources().groupVersions.flatMap((gv) => gv.resources.flatMap((r): [string, TablePrinter][] => {
    const printer = entryFor(printerTable, gv.groupKey, gv.version, r.resource);
    return printer === undefined ? [] : [[`${gv.groupKey}/${r.kind}`, printer]];
  })),
);
