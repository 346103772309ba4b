/**
 * The kinds kubectl 1.27 describes with a layout of its own, by neutral group key and kind (kubectl's
 * describerMap); every other kind gets its generic layout.
 */
import { horizontalPodAutoscalerDescriber } from './autoscaler-describer.js';
import { configMapDescriber, namespaceDescriber, secretDescriber, serviceAccountDescriber, serviceDescriber } from './core-describers.js';
import type { Describer } from './describe-context.js';
import { podDisruptionBudgetDescriber } from './disruption-budget-describer.js';
import { ingressDescriber } from './ingress-describer.js';
import { nodeDescriber } from './node-describer.js';
import { podDescriber } from './pod-describer.js';
import { limitRangeDescriber, resourceQuotaDescriber } from './quota-describers.js';
import { bindingDescriber, roleDescriber } from './rbac-describers.js';
import { persistentVolumeClaimDescriber, persistentVolumeDescriber } from './storage-describers.js';
import { cronJobDescriber, daemonSetDescriber, deploymentDescriber, jobDescriber, replicaSetDescriber, statefulSetDescriber } from './workload-describers.js';

/** The layouts by neutral group key and kind. */
export const kindDescribers: Readonly<Record<string, Describer>> = {
  '/ConfigMap': configMapDescriber,
  '/Secret': secretDescriber,
  '/Namespace': namespaceDescriber,
  '/ServiceAccount': serviceAccountDescriber,
  '/Service': serviceDescriber,
  '/Pod': podDescriber,
  '/Node': nodeDescriber,
  '/PersistentVolumeClaim': persistentVolumeClaimDescriber,
  '/PersistentVolume': persistentVolumeDescriber,
  '/ResourceQuota': resourceQuotaDescriber,
  '/LimitRange': limitRangeDescriber,
  'apps/Deployment': deploymentDescriber,
  'apps/ReplicaSet': replicaSetDescriber,
  'apps/StatefulSet': statefulSetDescriber,
  'apps/DaemonSet': daemonSetDescriber,
  'batch/Job': jobDescriber,
  'batch/CronJob': cronJobDescriber,
  'networking/Ingress': ingressDescriber,
  'policy/PodDisruptionBudget': podDisruptionBudgetDescriber,
  'autoscaling/HorizontalPodAutoscaler': horizontalPodAutoscalerDescriber,
  'rbac.authorization/Role': roleDescriber,
  'rbac.authorization/ClusterRole': roleDescriber,
  'rbac.authorization/RoleBinding': bindingDescriber,
  'rbac.authorization/ClusterRoleBinding': bindingDescriber,
};
