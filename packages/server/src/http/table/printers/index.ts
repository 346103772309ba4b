/**
 * The printers by kind: `<neutral group key>/<Kind>` (core is `/Pod`). Kinds without one get the default
 * Name / Created At table, as upstream has no printer for them (Roles, ClusterRoles, CustomResourceDefinitions).
 */
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
  ['/ComponentStatus', componentStatusPrinter],
  ['apps/Deployment', deploymentPrinter],
  ['apps/ReplicaSet', replicaSetPrinter],
  ['apps/StatefulSet', statefulSetPrinter],
  ['apps/DaemonSet', daemonSetPrinter],
  ['apps/ControllerRevision', controllerRevisionPrinter],
  ['batch/Job', jobPrinter],
  ['batch/CronJob', cronJobPrinter],
  ['autoscaling/HorizontalPodAutoscaler', horizontalPodAutoscalerPrinter],
  ['networking/Ingress', ingressPrinter],
  ['networking/IngressClass', ingressClassPrinter],
  ['networking/NetworkPolicy', networkPolicyPrinter],
  ['policy/PodDisruptionBudget', podDisruptionBudgetPrinter],
  ['rbac.authorization/RoleBinding', roleBindingPrinter],
  ['rbac.authorization/ClusterRoleBinding', clusterRoleBindingPrinter],
  ['storage/StorageClass', storageClassPrinter],
  ['storage/CSIDriver', csiDriverPrinter],
  ['storage/CSINode', csiNodePrinter],
  ['storage/VolumeAttachment', volumeAttachmentPrinter],
  ['storage/CSIStorageCapacity', csiStorageCapacityPrinter],
  ['scheduling/PriorityClass', priorityClassPrinter],
  ['node/RuntimeClass', runtimeClassPrinter],
  ['discovery/EndpointSlice', endpointSlicePrinter],
  ['certificates/CertificateSigningRequest', certificateSigningRequestPrinter],
  ['admissionregistration/MutatingWebhookConfiguration', webhookConfigurationPrinter],
  ['admissionregistration/ValidatingWebhookConfiguration', validatingWebhookConfigurationPrinter],
  ['apiregistration/APIService', apiServicePrinter],
  ['flowcontrol.apiserver/FlowSchema', flowSchemaPrinter],
  ['flowcontrol.apiserver/PriorityLevelConfiguration', priorityLevelConfigurationPrinter],
]);
