/**
 * Fields of alpha features that kube-apiserver 1.27 drops on write while their gate is off by default (the
 * strategies' dropDisabledFields): a field is dropped unless the stored object already uses it, so objects written
 * while a gate was on keep their values. Pods and pod templates: containers' `resizePolicy`
 * (InPlacePodVerticalScaling), `resourceClaims` and containers' `resources.claims` (DynamicResourceAllocation),
 * `hostUsers` (UserNamespacesStatelessPodsSupport); claims: `dataSourceRef.namespace`
 * (CrossNamespaceVolumeDataSource); nodes: `configSource` (DynamicKubeletConfig, removed).
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
