/**
 * Fields of alpha features that kube-apiserver 1.27 drops on write while their gate is off by default (the
 * strategies' dropDisabledFields): a field is dropped unless the stored object already uses it, so objects written
 * while a gate was on keep their values. Pods and pod templates: containers' `resizePolicy`
 * (InPlacePodVerticalScaling), `resourceClaims` and containers' `resources.claims` (DynamicResourceAllocation),
 * `hostUsers` (UserNamespacesStatelessPodsSupport), `procMount` forced to Default (ProcMountType); pod status:
 * `resize` and containers' allocated resources (InPlacePodVerticalScaling); claims: `dataSourceRef.namespace`
 * (CrossNamespaceVolumeDataSource), status `allocatedResources` and `resizeStatus`
 * (RecoverVolumeExpansionFailure); nodes: `configSource` (DynamicKubeletConfig, removed).
 */
import { record } from '../conversion/resource-conversion.js';

type Json = Record<string, unknown>;

function containersOf(spec: Json | undefined): Json[] {
  if (spec === undefined) return [];
  return ['containers', 'initContainers', 'ephemeralContainers'].flatMap((k) => (Array.isArray(spec[k]) ? spec[k] : []).map((c) => record(c) ?? {}));
}

/** dropDisabledPodFields for the 1.27 alpha gates, on a pod spec (`old` the stored one, absent on create). */
export function dropDisabledPodFields(spec: Json, old: Json | undefined): void {
  const oldContainers = containersOf(old);
  if (!oldContainers.some((c) => c['resizePolicy'] !== undefined)) for (const c of containersOf(spec)) delete c['resizePolicy'];
  const claimsInUse = (old?.['resourceClaims'] !== undefined) || oldContainers.some((c) => record(c['resources'])?.['claims'] !== undefined);
  if (!claimsInUse) {
    delete spec['resourceClaims'];
    for (const c of containersOf(spec)) {
      const resources = record(c['resources']);
      if (resources !== undefined) delete resources['claims'];
    }
  }
  if (old?.['hostUsers'] === undefined) delete spec['hostUsers'];
  // ProcMountType: a container's procMount is forced to Default (not dropped: 1.12 stored it) unless one was set.
  const procMountInUse = oldContainers.some((c) => {
    const mount = record(c['securityContext'])?.['procMount'];
    return mount !== undefined && mount !== null && mount !== 'Default';
  });
  if (!procMountInUse) {
    for (const c of containersOf(spec)) {
      const sc = record(c['securityContext']);
      if (sc !== undefined && sc['procMount'] !== undefined && sc['procMount'] !== null) sc['procMount'] = 'Default';
    }
  }
}

/**
 * dropDisabledPodStatusFields (InPlacePodVerticalScaling): `status.resize` and the containers' `allocatedResources`
 * and `resources` are dropped unless the stored status has them.
 */
export function dropDisabledPodStatusFields(status: Json, old: Json | undefined): void {
  const statuses = (s: Json | undefined): Json[] => ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']
    .flatMap((k) => (Array.isArray(s?.[k]) ? (s![k] as unknown[]) : []).map((c) => record(c) ?? {}));
  const inUse = old?.['resize'] !== undefined || statuses(old).some((c) => c['allocatedResources'] !== undefined || c['resources'] !== undefined);
  if (inUse) return;
  delete status['resize'];
  for (const c of statuses(status)) {
    delete c['allocatedResources'];
    delete c['resources'];
  }
}

/**
 * dropDisabledStatusFields of claims (RecoverVolumeExpansionFailure): `status.allocatedResources` and
 * `status.resizeStatus` unless the stored status has them.
 */
export function dropDisabledClaimStatusFields(status: Json, old: Json | undefined): void {
  if (old?.['allocatedResources'] === undefined) delete status['allocatedResources'];
  if (old?.['resizeStatus'] === undefined) delete status['resizeStatus'];
}

/** The same for a template's spec at `template.spec`. */
export function dropDisabledTemplateFields(template: unknown, oldTemplate: unknown): void {
  const spec = record(record(template)?.['spec']);
  if (spec !== undefined) dropDisabledPodFields(spec, record(record(oldTemplate)?.['spec']));
}

/** dropDisabledFields of claims: `dataSourceRef.namespace`. */
export function dropDisabledClaimFields(spec: Json, old: Json | undefined): void {
  const ref = record(spec['dataSourceRef']);
  if (ref !== undefined && record(old?.['dataSourceRef'])?.['namespace'] === undefined) delete ref['namespace'];
}

/** dropDisabledFields of nodes: `configSource`. */
export function dropDisabledNodeFields(spec: Json, old: Json | undefined): void {
  if (old?.['configSource'] === undefined) delete spec['configSource'];
}
