/**
 * The built-in resources of kube-apiserver 1.27 as typed keys, `<group key>/<version>/<resource>` with the naming
 * table's neutral group keys and `core` for the core group. The per-kind tables (strategies, conversions,
 * printers) are keyed by them, so a misspelt resource does not compile. The list mirrors
 * generated/resources.json, in its order; a test holds the two equal.
 */

/** Every built-in group-version-resource of 1.27. */
export const builtinResourceKeys = [
  'core/v1/bindings', 'core/v1/componentstatuses', 'core/v1/configmaps', 'core/v1/endpoints', 'core/v1/events',
  'core/v1/limitranges', 'core/v1/namespaces', 'core/v1/nodes', 'core/v1/persistentvolumeclaims',
  'core/v1/persistentvolumes', 'core/v1/pods', 'core/v1/podtemplates', 'core/v1/replicationcontrollers',
  'core/v1/resourcequotas', 'core/v1/secrets', 'core/v1/serviceaccounts', 'core/v1/services',
  'admissionregistration/v1/mutatingwebhookconfigurations',
  'admissionregistration/v1/validatingwebhookconfigurations',
  'admissionregistration/v1alpha1/validatingadmissionpolicies',
  'admissionregistration/v1alpha1/validatingadmissionpolicybindings', 'apiextensions/v1/customresourcedefinitions',
  'apiregistration/v1/apiservices', 'apps/v1/controllerrevisions', 'apps/v1/daemonsets', 'apps/v1/deployments',
  'apps/v1/replicasets', 'apps/v1/statefulsets', 'authentication/v1/tokenreviews',
  'authentication/v1alpha1/selfsubjectreviews', 'authentication/v1beta1/selfsubjectreviews',
  'authorization/v1/localsubjectaccessreviews', 'authorization/v1/selfsubjectaccessreviews',
  'authorization/v1/selfsubjectrulesreviews', 'authorization/v1/subjectaccessreviews',
  'autoscaling/v1/horizontalpodautoscalers', 'autoscaling/v2/horizontalpodautoscalers', 'batch/v1/cronjobs',
  'batch/v1/jobs', 'certificates/v1/certificatesigningrequests', 'certificates/v1alpha1/clustertrustbundles',
  'coordination/v1/leases', 'discovery/v1/endpointslices', 'events/v1/events',
  'flowcontrol.apiserver/v1beta2/flowschemas', 'flowcontrol.apiserver/v1beta2/prioritylevelconfigurations',
  'flowcontrol.apiserver/v1beta3/flowschemas', 'flowcontrol.apiserver/v1beta3/prioritylevelconfigurations',
  'internal.apiserver/v1alpha1/storageversions', 'networking/v1/ingressclasses', 'networking/v1/ingresses',
  'networking/v1/networkpolicies', 'networking/v1alpha1/clustercidrs', 'networking/v1alpha1/ipaddresses',
  'node/v1/runtimeclasses', 'policy/v1/poddisruptionbudgets', 'rbac.authorization/v1/clusterrolebindings',
  'rbac.authorization/v1/clusterroles', 'rbac.authorization/v1/rolebindings', 'rbac.authorization/v1/roles',
  'resource/v1alpha2/podschedulingcontexts', 'resource/v1alpha2/resourceclaims',
  'resource/v1alpha2/resourceclaimtemplates', 'resource/v1alpha2/resourceclasses', 'scheduling/v1/priorityclasses',
  'storage/v1/csidrivers', 'storage/v1/csinodes', 'storage/v1/csistoragecapacities', 'storage/v1/storageclasses',
  'storage/v1/volumeattachments',
] as const;

/** A built-in group-version-resource: `apps/v1/deployments`, `core/v1/pods`. */
export type ResourceKey = (typeof builtinResourceKeys)[number];

/** A built-in group-resource, whatever the version: `apps/deployments`, `core/pods`. */
export type GroupResourceKey = ResourceKey extends `${infer G}/${string}/${infer R}` ? `${G}/${R}` : never;

/** A per-kind table: entries for a group-resource, or for one version of it. */
export type ResourceTable<T> = { readonly [K in ResourceKey | GroupResourceKey]?: T };

/** A per-version table: entries for single group-version-resources only. */
export type VersionTable<T> = { readonly [K in ResourceKey]?: T };

/** The group key as keys spell it: `core` for the core group (`''`). */
const keyGroup = (groupKey: string): string => groupKey || 'core';

/** The key of a group-version-resource (`core/v1/pods`). */
export function resourceKey(groupKey: string, version: string, resource: string): string {
  return `${keyGroup(groupKey)}/${version}/${resource}`;
}

/** The key of a group-resource (`core/pods`). */
export function groupResourceKey(groupKey: string, resource: string): string {
  return `${keyGroup(groupKey)}/${resource}`;
}

/** A table's entry for a resource version: the version's own entry, else the group-resource's. */
export function entryFor<T>(table: ResourceTable<T>, groupKey: string, version: string, resource: string): T | undefined {
  const byKey = table as Readonly<Record<string, T | undefined>>;
  return byKey[resourceKey(groupKey, version, resource)] ?? byKey[groupResourceKey(groupKey, resource)];
}
