/**
 * The strategies of the resources that have one, by typed group-resource key (`core/configmaps`), or by
 * group-version-resource where versions differ (`autoscaling/v1/horizontalpodautoscalers`). Served resources
 * without an entry use the generic strategy (a test holds that to the kinds kube-apiserver has none for).
 */
import type { Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import type { ResourceTable } from '../../schema/resource-keys.js';
import type { Strategy } from '../strategy.js';
import { configMapStrategy } from './configmaps.js';
import { customResourceDefinitionStrategy } from './customresourcedefinitions.js';
import { apiServiceStrategy } from './apiservices.js';
import { cronJobStrategy } from './cronjobs.js';
import { daemonSetStrategy } from './daemonsets.js';
import { deploymentStrategy } from './deployments.js';
import { hpaV1Strategy, hpaV2Strategy } from './horizontalpodautoscalers.js';
import { jobStrategy } from './jobs.js';
import { replicaSetStrategy } from './replicasets.js';
import { statefulSetStrategy } from './statefulsets.js';
import { endpointsStrategy } from './endpoints.js';
import { eventStrategy } from './events.js';
import { eventV1Strategy } from './events-v1.js';
import { leaseStrategy } from './leases.js';
import { limitRangeStrategy } from './limitranges.js';
import { namespaceStrategy } from './namespaces.js';
import { nodeStrategy } from './nodes.js';
import { persistentVolumeClaimStrategy } from './persistentvolumeclaims.js';
import { persistentVolumeStrategy } from './persistentvolumes.js';
import { podStrategy } from './pods.js';
import { podTemplateStrategy } from './podtemplates.js';
import { replicationControllerStrategy } from './replicationcontrollers.js';
import { resourceQuotaStrategy } from './resourcequotas.js';
import { secretStrategy } from './secrets.js';
import { serviceAccountStrategy } from './serviceaccounts.js';
import { serviceStrategy } from './services.js';
import { certificateSigningRequestStrategy } from './certificatesigningrequests.js';
import { flowSchemaStrategy } from './flowschemas.js';
import { ingressClassStrategy } from './ingressclasses.js';
import { ingressStrategy } from './ingresses.js';
import { networkPolicyStrategy } from './networkpolicies.js';
import { priorityClassStrategy } from './priorityclasses.js';
import { priorityLevelStrategy } from './prioritylevelconfigurations.js';
import { runtimeClassStrategy } from './runtimeclasses.js';
import { clusterTrustBundleStrategy } from './clustertrustbundles.js';
import { storageClassStrategy } from './storageclasses.js';
import { podDisruptionBudgetStrategy } from './poddisruptionbudgets.js';
import { roleStrategy } from './roles.js';
import { clusterRoleStrategy } from './clusterroles.js';
import { roleBindingStrategy } from './rolebindings.js';
import { clusterRoleBindingStrategy } from './clusterrolebindings.js';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './webhook-configurations.js';
import { controllerRevisionStrategy } from './controllerrevisions.js';
import { endpointSliceStrategy } from './endpointslices.js';
import { csiDriverStrategy } from './csidrivers.js';
import { csiNodeStrategy } from './csinodes.js';
import { csiStorageCapacityStrategy } from './csistoragecapacities.js';
import { volumeAttachmentStrategy } from './volumeattachments.js';
import { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyStrategy } from './validating-admission-policies.js';

/**
 * Makes a resource's strategy in a flavour under the server's feature gates (kube's strategies read the process's
 * gates: fields of a disabled feature are dropped on write, and validation follows the gates' defaults).
 */
export type StrategyFactory = (names: Names, gates: FeatureGates) => Strategy;

/** Strategy factories by resource. */
export const strategyFactories: ResourceTable<StrategyFactory> = {
  'core/namespaces': namespaceStrategy,
  'core/configmaps': configMapStrategy,
  'apiextensions/customresourcedefinitions': customResourceDefinitionStrategy,
  'apiregistration/apiservices': apiServiceStrategy,
  'core/secrets': secretStrategy,
  'core/serviceaccounts': serviceAccountStrategy,
  'core/pods': podStrategy,
  'core/services': (names) => serviceStrategy(undefined, names),
  'core/nodes': nodeStrategy,
  'core/events': eventStrategy,
  'core/endpoints': endpointsStrategy,
  'core/limitranges': limitRangeStrategy,
  'core/resourcequotas': resourceQuotaStrategy,
  'core/podtemplates': podTemplateStrategy,
  'core/replicationcontrollers': replicationControllerStrategy,
  'core/persistentvolumes': persistentVolumeStrategy,
  'core/persistentvolumeclaims': persistentVolumeClaimStrategy,
  'coordination/leases': leaseStrategy,
  'events/events': eventV1Strategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'autoscaling/v1/horizontalpodautoscalers': hpaV1Strategy,
  'autoscaling/v2/horizontalpodautoscalers': hpaV2Strategy,
  'certificates/certificatesigningrequests': certificateSigningRequestStrategy,
  'certificates/clustertrustbundles': clusterTrustBundleStrategy,
  'storage/storageclasses': storageClassStrategy,
  'storage/csidrivers': csiDriverStrategy,
  'storage/csinodes': csiNodeStrategy,
  'storage/csistoragecapacities': csiStorageCapacityStrategy,
  'storage/volumeattachments': volumeAttachmentStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
  'scheduling/priorityclasses': priorityClassStrategy,
  'node/runtimeclasses': runtimeClassStrategy,
  'networking/ingresses': ingressStrategy,
  'networking/ingressclasses': ingressClassStrategy,
  'networking/networkpolicies': networkPolicyStrategy,
  'discovery/endpointslices': endpointSliceStrategy,
  'flowcontrol.apiserver/flowschemas': flowSchemaStrategy,
  'flowcontrol.apiserver/prioritylevelconfigurations': priorityLevelStrategy,
  'admissionregistration/v1/mutatingwebhookconfigurations': mutatingWebhookConfigurationStrategy,
  'admissionregistration/v1/validatingwebhookconfigurations': validatingWebhookConfigurationStrategy,
  'admissionregistration/v1alpha1/validatingadmissionpolicies': validatingAdmissionPolicyStrategy,
  'admissionregistration/v1alpha1/validatingadmissionpolicybindings': validatingAdmissionPolicyBindingStrategy,
  // Without the writer check: the server passes its own factories with the escalation guard.
  'rbac.authorization/roles': () => roleStrategy(),
  'rbac.authorization/clusterroles': () => clusterRoleStrategy(),
  'rbac.authorization/rolebindings': (names) => roleBindingStrategy(names),
  'rbac.authorization/clusterrolebindings': (names) => clusterRoleBindingStrategy(names),
};
