/**
 * Fields of gated features that kube-apiserver 1.27 drops on write while their gate is off (the strategies'
 * dropDisabledFields, reading the server's `--feature-gates`): a field is dropped unless the stored object already
 * uses it, so objects written while a gate was on keep their values. Pods and pod templates: containers'
 * `resizePolicy` (InPlacePodVerticalScaling), `resourceClaims` and containers' `resources.claims`
 * (DynamicResourceAllocation), `hostUsers` (UserNamespacesStatelessPodsSupport), `procMount` forced to Default
 * (ProcMountType), `schedulingGates` (PodSchedulingReadiness), topology spread `minDomains`
 * (MinDomainsInPodTopologySpread), `nodeAffinityPolicy` and `nodeTaintsPolicy`
 * (NodeInclusionPolicyInPodTopologySpread), `matchLabelKeys` (MatchLabelKeysInPodTopologySpread), probes'
 * `terminationGracePeriodSeconds` (ProbeTerminationGracePeriod); pod status: `resize` and containers' allocated
 * resources (InPlacePodVerticalScaling); claims: `dataSourceRef` (AnyVolumeDataSource, and with a namespace
 * CrossNamespaceVolumeDataSource), a `dataSource` of another kind than a claim or snapshot (AnyVolumeDataSource),
 * status `allocatedResources` and `resizeStatus` (RecoverVolumeExpansionFailure); nodes: `configSource`
 * (DynamicKubeletConfig, removed).
 */
import { record } from '../conversion/resource-conversion.js';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';

type Json = Record<string, unknown>;

function containersOf(spec: Json | undefined): Json[] {
  if (spec === undefined) return [];
  return ['containers', 'initContainers', 'ephemeralContainers'].flatMap((k) => (Array.isArray(spec[k]) ? spec[k] : []).map((c) => record(c) ?? {}));
}

/** The topology spread constraints of a spec. */
function spreadConstraints(spec: Json | undefined): Json[] {
  return (Array.isArray(spec?.['topologySpreadConstraints']) ? spec!['topologySpreadConstraints'] as unknown[] : []).map((c) => record(c) ?? {});
}

/** The probes of a spec's containers that may carry a termination grace period (liveness and startup). */
function gracePeriodProbes(spec: Json | undefined): Json[] {
  return containersOf(spec).flatMap((c) => ['livenessProbe', 'startupProbe'].map((k) => record(c[k])).filter((p): p is Json => p !== undefined));
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Drops `keys` from every item of `items` unless one of `oldItems` sets one of them (kube's per-feature
 * `...InUse(oldPodSpec)` checks).
 */
function dropUnlessInUse(on: boolean, items: Json[], oldItems: Json[], keys: readonly string[]): void {
  if (on || oldItems.some((i) => keys.some((k) => isSet(i[k])))) return;
  for (const item of items) for (const k of keys) delete item[k];
}

/** dropDisabledFields of a pod spec under `gates` (`old` the stored spec, absent on create). */
export function dropDisabledPodFields(spec: Json, old: Json | undefined, gates: FeatureGates = defaultFeatureGates): void {
  const oldContainers = containersOf(old);
  dropUnlessInUse(gates.InPlacePodVerticalScaling, containersOf(spec), oldContainers, ['resizePolicy']);
  const claimsInUse = isSet(old?.['resourceClaims']) || oldContainers.some((c) => isSet(record(c['resources'])?.['claims']));
  if (!gates.DynamicResourceAllocation && !claimsInUse) {
    delete spec['resourceClaims'];
    for (const c of containersOf(spec)) {
      const resources = record(c['resources']);
      if (resources !== undefined) delete resources['claims'];
    }
  }
  if (!gates.UserNamespacesStatelessPodsSupport && !isSet(old?.['hostUsers'])) delete spec['hostUsers'];
  // ProcMountType: a container's procMount is forced to Default (not dropped: 1.12 stored it) unless one was set.
  const procMountInUse = oldContainers.some((c) => {
    const mount = record(c['securityContext'])?.['procMount'];
    return isSet(mount) && mount !== 'Default';
  });
  if (!gates.ProcMountType && !procMountInUse) {
    for (const c of containersOf(spec)) {
      const sc = record(c['securityContext']);
      if (sc !== undefined && isSet(sc['procMount'])) sc['procMount'] = 'Default';
    }
  }
  const oldGates = old?.['schedulingGates'];
  if (!gates.PodSchedulingReadiness && !(Array.isArray(oldGates) && oldGates.length > 0)) delete spec['schedulingGates'];
  const constraints = spreadConstraints(spec);
  const oldConstraints = spreadConstraints(old);
  dropUnlessInUse(gates.MinDomainsInPodTopologySpread, constraints, oldConstraints, ['minDomains']);
  dropUnlessInUse(gates.NodeInclusionPolicyInPodTopologySpread, constraints, oldConstraints, ['nodeAffinityPolicy', 'nodeTaintsPolicy']);
  dropUnlessInUse(gates.MatchLabelKeysInPodTopologySpread, constraints, oldConstraints, ['matchLabelKeys']);
  dropUnlessInUse(gates.ProbeTerminationGracePeriod, gracePeriodProbes(spec), gracePeriodProbes(old), ['terminationGracePeriodSeconds']);
}

/**
 * dropDisabledPodStatusFields (InPlacePodVerticalScaling): `status.resize` and the containers' `allocatedResources`
 * and `resources` are dropped unless the stored status has them.
 */
export function dropDisabledPodStatusFields(status: Json, old: Json | undefined, gates: FeatureGates = defaultFeatureGates): void {
  if (gates.InPlacePodVerticalScaling) return;
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
export function dropDisabledClaimStatusFields(status: Json, old: Json | undefined, gates: FeatureGates = defaultFeatureGates): void {
  if (gates.RecoverVolumeExpansionFailure) return;
  if (old?.['allocatedResources'] === undefined) delete status['allocatedResources'];
  if (old?.['resizeStatus'] === undefined) delete status['resizeStatus'];
}

/** The same for a template's spec at `template.spec`. */
export function dropDisabledTemplateFields(template: unknown, oldTemplate: unknown, gates: FeatureGates = defaultFeatureGates): void {
  const spec = record(record(template)?.['spec']);
  if (spec !== undefined) dropDisabledPodFields(spec, record(record(oldTemplate)?.['spec']), gates);
}

/** dataSourceIsEnabled: a data source the claim may keep (any kind with AnyVolumeDataSource, else claims and snapshots). */
function dataSourceEnabled(source: Json, gates: FeatureGates): boolean {
  if (gates.AnyVolumeDataSource) return true;
  const group = typeof source['apiGroup'] === 'string' ? source['apiGroup'] : '';
  return (group === '' && source['kind'] === 'PersistentVolumeClaim') || (/^snapshot\.storage\.(k8s|svc)\.io$/.test(group) && source['kind'] === 'VolumeSnapshot');
}

/**
 * DropDisabledFields and EnforceDataSourceBackwardsCompatibility of claim specs: `dataSourceRef` goes unless the
 * stored claim has one while AnyVolumeDataSource is off, or while CrossNamespaceVolumeDataSource is off and it names
 * a namespace; a `dataSource` the gates do not allow goes unless the stored claim has a data source.
 */
export function dropDisabledClaimFields(spec: Json, old: Json | undefined, gates: FeatureGates = defaultFeatureGates): void {
  const refInUse = isSet(old?.['dataSourceRef']);
  const ref = record(spec['dataSourceRef']);
  if (ref !== undefined && !refInUse) {
    const namespace = ref['namespace'];
    const crossNamespace = typeof namespace === 'string' && namespace !== '';
    if (!gates.AnyVolumeDataSource || (!gates.CrossNamespaceVolumeDataSource && crossNamespace)) delete spec['dataSourceRef'];
  }
  const source = record(spec['dataSource']);
  if (source !== undefined && !isSet(old?.['dataSource']) && !dataSourceEnabled(source, gates)) delete spec['dataSource'];
}

/** dropDisabledFields of nodes: `configSource`. */
export function dropDisabledNodeFields(spec: Json, old: Json | undefined): void {
  if (old?.['configSource'] === undefined) delete spec['configSource'];
}
