/**
 * The resources this server serves, as data: adding a resource is a line here (plus a strategy file when it needs
 * behaviour of its own). Group keys are neutral (see the naming table); `''` is the core group.
 */

/** One served resource. Subresources come from the catalog. */
export interface ServedResource {
  readonly groupKey: string;
  readonly version: string;
  readonly resource: string;
}

const core = (resource: string): ServedResource => ({ groupKey: '', version: 'v1', resource });

/** The served set (kube-apiserver 1.27's core types of this stage, leases and events.v1). */
export const servedResources: readonly ServedResource[] = [
  core('namespaces'),
  core('configmaps'),
  core('secrets'),
  core('serviceaccounts'),
  core('pods'),
  core('services'),
  core('nodes'),
  core('events'),
  core('endpoints'),
  core('limitranges'),
  core('resourcequotas'),
  core('podtemplates'),
  core('replicationcontrollers'),
  core('persistentvolumes'),
  core('persistentvolumeclaims'),
  { groupKey: 'coordination', version: 'v1', resource: 'leases' },
  { groupKey: 'events', version: 'v1', resource: 'events' },
];
