/**
 * The discovery priorities of the built-in group-versions (kube-apiserver 1.27's apiVersionPriorities, which its
 * autoregistration writes into the built-in APIServices): groups are listed by descending
 * `groupPriorityMinimum`, versions of a group by descending `versionPriority`. Group-versions of custom resources
 * get 1000 and 100, as kube's CRD registration gives them.
 */

/** One group-version's priorities. */
export interface Priority {
  readonly group: number;
  readonly version: number;
}

/** Priorities by neutral group key and version. */
const table: Readonly<Record<string, Priority>> = {
  '/v1': { group: 18000, version: 1 },
  'apiextensions/v1': { group: 16700, version: 15 },
  'apiregistration/v1': { group: 18000, version: 15 },
  'events/v1': { group: 17750, version: 15 },
  'authentication/v1': { group: 17700, version: 15 },
  'authentication/v1beta1': { group: 17700, version: 9 },
  'authentication/v1alpha1': { group: 17700, version: 1 },
  'authorization/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates/v1': { group: 17300, version: 15 },
  'certificates/v1alpha1': { group: 17300, version: 1 },
  'networking/v1': { group: 17200, version: 15 },
  'networking/v1alpha1': { group: 17200, version: 1 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization/v1': { group: 17000, version: 15 },
  'storage/v1': { group: 16800, version: 15 },
  'storage/v1beta1': { group: 16800, version: 9 },
  'storage/v1alpha1': { group: 16800, version: 1 },
  'apps/v1': { group: 17800, version: 15 },
  'admissionregistration/v1': { group: 16700, version: 15 },
  'admissionregistration/v1beta1': { group: 16700, version: 12 },
  'admissionregistration/v1alpha1': { group: 16700, version: 9 },
  'scheduling/v1': { group: 16600, version: 15 },
  'coordination/v1': { group: 16500, version: 15 },
  'node/v1': { group: 16300, version: 15 },
  'discovery/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver/v1beta3': { group: 16100, version: 18 },
  'flowcontrol.apiserver/v1beta2': { group: 16100, version: 15 },
  'internal.apiserver/v1alpha1': { group: 30, version: 9 },
  'resource/v1alpha2': { group: 16200, version: 1 },
};

/** The priorities of a built-in group-version (neutral group key); kube's default for one it does not list. */
export function builtinPriority(groupKey: string, version: string): Priority {
  return table[`${groupKey}/${version}`] ?? { group: 1000, version: 100 };
}

/** The priorities of a custom resource's group-version. */
export const customResourcePriority: Priority = { group: 1000, version: 100 };
