/**
 * Every admission plugin this server knows. The order here does not matter: the chain runs enabled plugins in
 * kube-apiserver's fixed order (plugin-order.ts).
 */
import { ok, type Names } from '@svc-apiserver/api';
import type { AdmissionPlugin, PluginFactory, PluginInit } from '../plugin.js';
import { alwaysAdmitPlugin } from './always-admit.js';
import { alwaysDenyPlugin } from './always-deny.js';
import { clusterTrustBundleAttestPlugin } from './cluster-trust-bundle-attest.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { serviceAccountPlugin } from './service-account.js';
import { mutatingAdmissionWebhookPlugin, validatingAdmissionWebhookPlugin } from './admission-webhooks.js';
import { alwaysPullImagesPlugin } from './always-pull-images.js';
import { defaultIngressClassPlugin } from './default-ingress-class.js';
import { defaultStorageClassPlugin } from './default-storage-class.js';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.js';
import { denyServiceExternalIpsPlugin } from './deny-service-external-ips.js';
import { eventRateLimitPlugin } from './event-rate-limit.js';
import { extendedResourceTolerationPlugin } from './extended-resource-toleration.js';
import { imagePolicyWebhookPlugin } from './image-policy-webhook.js';
import { limitPodHardAntiAffinityTopologyPlugin } from './limit-pod-hard-anti-affinity-topology.js';
import { limitRangerPlugin } from './limit-ranger.js';
import { namespaceAutoProvisionPlugin } from './namespace-auto-provision.js';
import { namespaceExistsPlugin } from './namespace-exists.js';
import { nodeRestrictionPlugin } from './node-restriction.js';
import { ownerReferencesPermissionEnforcementPlugin } from './owner-references-permission-enforcement.js';
import { persistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.js';
import { persistentVolumeLabelPlugin } from './persistent-volume-label.js';
import { podNodeSelectorPlugin } from './pod-node-selector.js';
import { podSecurityPlugin } from './pod-security.js';
import { podTolerationRestrictionPlugin } from './pod-toleration-restriction.js';
import { priorityPlugin } from './priority.js';
import { resourceQuotaPlugin } from './resource-quota.js';
import { runtimeClassPlugin } from './runtime-class.js';
import { securityContextDenyPlugin } from './security-context-deny.js';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.js';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.js';
import { validatingAdmissionPolicyPlugin } from './validating-admission-policy.js';

/** A factory of a plugin that takes no configuration: it always makes its plugin. */
function plain(make: (names: Names, init: PluginInit) => AdmissionPlugin): PluginFactory {
  return (names, init) => ok(make(names, init));
}

/** Plugin factories. */
export const pluginFactories: readonly PluginFactory[] = [
  plain(namespaceLifecyclePlugin),
  plain((names) => serviceAccountPlugin(names)),
  plain(certificateApprovalPlugin),
  plain(certificateSigningPlugin),
  plain(certificateSubjectRestrictionPlugin),
  plain(clusterTrustBundleAttestPlugin),
  plain(alwaysAdmitPlugin),
  plain(alwaysDenyPlugin),
  mutatingAdmissionWebhookPlugin,
  validatingAdmissionWebhookPlugin,
  plain(alwaysPullImagesPlugin),
  plain(defaultIngressClassPlugin),
  plain(defaultStorageClassPlugin),
  plain(defaultTolerationSecondsPlugin),
  plain(denyServiceExternalIpsPlugin),
  eventRateLimitPlugin,
  plain(extendedResourceTolerationPlugin),
  imagePolicyWebhookPlugin,
  plain(limitPodHardAntiAffinityTopologyPlugin),
  plain(limitRangerPlugin),
  plain(namespaceAutoProvisionPlugin),
  plain(namespaceExistsPlugin),
  plain(nodeRestrictionPlugin),
  plain(ownerReferencesPermissionEnforcementPlugin),
  plain(persistentVolumeClaimResizePlugin),
  plain(persistentVolumeLabelPlugin),
  podNodeSelectorPlugin,
  podSecurityPlugin,
  podTolerationRestrictionPlugin,
  plain(priorityPlugin),
  resourceQuotaPlugin,
  plain(runtimeClassPlugin),
  plain(securityContextDenyPlugin),
  plain(storageObjectInUseProtectionPlugin),
  plain(taintNodesByConditionPlugin),
  plain(validatingAdmissionPolicyPlugin),
];
