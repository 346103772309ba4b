/**
 * Services (pkg/registry/core/service, SetDefaults_Service, ValidateService in service-validation.ts): named by
 * DNS-1035 label, status subresource; `type` ClusterIP, `sessionAffinity` None (its config dropped; ClientIP gets
 * a 10800 s timeout), ports' `protocol` TCP and `targetPort` = `port`, `internalTrafficPolicy` Cluster,
 * `externalTrafficPolicy` Cluster for NodePort and LoadBalancer Services, `clusterIPs` from `clusterIP`, `ipFamilies`
 * [IPv4] and `ipFamilyPolicy` SingleStack (RequireDualStack for a headless Service without a selector); warnings of
 * GetWarningsForService (service-warnings.ts); a cluster IP from `--service-cluster-ip-range`
 * and node ports from `--service-node-port-range` (allocators/), conflicts rejected; `clusterIP` immutable. The
 * allocations are claimed in the store's range records around each write (kube's BeginCreate/BeginUpdate) and freed
 * after a delete, so several servers on one store never hand out the same address or port.
 */
import { namesFor, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { parseIpRange, parsePortRange } from '../allocators/ip-range.js';
import { createServiceAllocator, type ServiceAllocator } from '../allocators/service-allocator.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { child, sameJson, setDefault, specOf } from './object-fields.js';
import { externallyAccessible, validateService, validateServiceStatus, validateServiceUpdate } from './service-validation.js';
import { serviceWarnings } from './service-warnings.js';

type Json = Record<string, unknown>;

/** SetDefaults_Service, in place (on decode: the writer owns what it fills). */
function defaultService(object: KubeObject): void {
  const spec = specOf(object);
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec['sessionAffinity'] === 'None') delete spec['sessionAffinityConfig'];
  if (spec['sessionAffinity'] === 'ClientIP') {
    const timeout = record(record(spec['sessionAffinityConfig'])?.['clientIP'])?.['timeoutSeconds'];
    if (timeout === undefined || timeout === null) spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const raw of Array.isArray(spec['ports']) ? spec['ports'] : []) {
    const p = record(raw);
    if (p === undefined) continue;
    setDefault(p, 'protocol', 'TCP');
    if (p['targetPort'] === undefined || p['targetPort'] === 0 || p['targetPort'] === '') p['targetPort'] = p['port'];
  }
  if (externallyAccessible(spec)) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'ExternalName') return;
  setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

/**
 * The ip family fields the service storage fills in when it allocates (kube's initIPFamilyFields, after the field
 * manager ran: nobody owns them), in place.
 */
function defaultIpFamilies(spec: Json): void {
  if (spec['type'] === 'ExternalName') return;
  setDefault(spec, 'ipFamilies', ['IPv4']);
  // A headless Service without a selector has no IPs of its own: kube asks for every family the cluster has.
  const selector = record(spec['selector']);
  const headlessWithoutSelector = spec['clusterIP'] === 'None' && (selector === undefined || Object.keys(selector).length === 0);
  setDefault(spec, 'ipFamilyPolicy', headlessWithoutSelector ? 'RequireDualStack' : 'SingleStack');
}

/**
 * normalizeClusterIPs (the service strategy's PrepareForCreate and PrepareForUpdate): a client that sets only
 * `clusterIP` gets `clusterIPs` from it; on update, `clusterIPs` left out beside an unchanged `clusterIP` is kept,
 * cleared beside a cleared `clusterIP`, and follows a changed `clusterIP` when it was not changed itself.
 */
function normalizeClusterIps(spec: Json, before: Json | undefined): void {
  const ip = typeof spec['clusterIP'] === 'string' ? spec['clusterIP'] : '';
  const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [];
  if (before === undefined) {
    if (ip !== '' && ips.length === 0) spec['clusterIPs'] = [ip];
    return;
  }
  const oldIp = typeof before['clusterIP'] === 'string' ? before['clusterIP'] : '';
  const oldIps = Array.isArray(before['clusterIPs']) ? before['clusterIPs'] : [];
  if (oldIps.length > 0 && ips.length === 0 && oldIp === ip) spec['clusterIPs'] = structuredClone(oldIps);
  if (oldIp === ip) return;
  const same = sameJson(spec['clusterIPs'], before['clusterIPs']);
  if (oldIp !== '' && ip === '') {
    if (same) delete spec['clusterIPs'];
  } else if (same) {
    spec['clusterIPs'] = [ip];
  }
}

const needsClusterIp = (spec: Json): boolean => spec['type'] !== 'ExternalName';
const needsNodePort = (spec: Json): boolean => spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer';
const needsHealthCheckNodePort = (spec: Json): boolean => spec['type'] === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local';

/**
 * dropTypeDependentFields (the service strategy's PrepareForUpdate): on a type change, what the old type needed
 * and the new one does not is wiped where the update left it as it was (cluster IPs and IP families leaving for
 * ExternalName, node ports leaving NodePort or LoadBalancer, the health check port, the load balancer's node port
 * allocation and class, the external traffic policy), and a non-LoadBalancer has no load balancer status.
 */
export function dropTypeDependentFields(object: KubeObject, old: KubeObject): void {
  const spec = specOf(object);
  const before = record(old['spec']) ?? {};
  const same = (key: string): boolean => sameJson(spec[key], before[key]);
  if (needsClusterIp(before) && !needsClusterIp(spec)) {
    if (same('clusterIP') && same('clusterIPs')) {
      delete spec['clusterIP'];
      delete spec['clusterIPs'];
    }
    if (same('ipFamilies')) delete spec['ipFamilies'];
    if (same('ipFamilyPolicy')) delete spec['ipFamilyPolicy'];
  }
  const ports = Array.isArray(spec['ports']) ? spec['ports'] : [];
  const oldPorts = Array.isArray(before['ports']) ? before['ports'] : [];
  const nodePorts = (list: unknown[]): unknown[] => list.map((p) => record(p)?.['nodePort'] ?? 0);
  if (needsNodePort(before) && !needsNodePort(spec) && sameJson(nodePorts(ports), nodePorts(oldPorts))) {
    for (const p of ports) {
      const port = record(p);
      if (port !== undefined) delete port['nodePort'];
    }
  }
  if (needsHealthCheckNodePort(before) && !needsHealthCheckNodePort(spec) && same('healthCheckNodePort')) delete spec['healthCheckNodePort'];
  if (before['type'] === 'LoadBalancer' && spec['type'] !== 'LoadBalancer') {
    if (spec['allocateLoadBalancerNodePorts'] !== undefined && same('allocateLoadBalancerNodePorts')) delete spec['allocateLoadBalancerNodePorts'];
    if (same('loadBalancerClass')) delete spec['loadBalancerClass'];
  }
  if (needsNodePort(before) && !needsNodePort(spec) && same('externalTrafficPolicy')) delete spec['externalTrafficPolicy'];
  if (spec['type'] !== 'LoadBalancer') object.status = { ...(record(object.status) ?? {}), loadBalancer: {} };
}

/** The allocator of a strategy made without one (tests, the default registry): default ranges, no feed. */
function defaultAllocator(): ServiceAllocator {
  const ips = parseIpRange('10.0.0.0/24');
  const ports = parsePortRange('30000-32767');
  if (!ips.ok || !ports.ok) throw new Error('default service ranges do not parse');
  return createServiceAllocator(ips.value, ports.value);
}

/**
 * The service strategy. Allocation errors surface with validation (422 Invalid), as kube's service REST storage
 * reports them.
 */
export function serviceStrategy(allocator: ServiceAllocator = defaultAllocator(), names: Names = namesFor('k8s')): Strategy {
  // Allocation errors found while preparing are reported by the validation that follows (same object).
  const pending = new WeakMap<KubeObject, FieldError[]>();
  const allocationErrors = (object: KubeObject): FieldError[] => pending.get(object) ?? [];
  const strategy = defineStrategy({
    nameRule: 'dns1035Label',
    hasStatus: true,
    returnDeletedObject: true,
    warnings: (object) => serviceWarnings(object, names),
    status: { prepareForUpdate: genericStatusStrategy.prepareForUpdate, validateUpdate: validateServiceStatus },
    defaults: defaultService,
    prepareForCreate(object) {
      const spec = specOf(object);
      object.status = { loadBalancer: {} };
      normalizeClusterIps(spec, undefined);
      defaultIpFamilies(spec);
      if (spec['type'] !== 'ExternalName') pending.set(object, allocator.allocate(object));
    },
    prepareForUpdate(object, old) {
      const spec = specOf(object);
      const before = record(old['spec']) ?? {};
      // An update that leaves clusterIP out keeps the allocated one (kube's PatchAllocatedValues).
      if (spec['clusterIP'] === undefined && before['clusterIP'] !== undefined && spec['type'] !== 'ExternalName') {
        spec['clusterIP'] = before['clusterIP'];
        if (before['clusterIPs'] !== undefined) spec['clusterIPs'] = before['clusterIPs'];
      }
      normalizeClusterIps(spec, before);
      dropTypeDependentFields(object, old);
      defaultIpFamilies(spec);
      if (spec['type'] !== 'ExternalName') pending.set(object, allocator.allocate(object, old));
    },
    // kube allocates in BeginCreate/BeginUpdate, after validation passed: allocation errors only show on a valid object.
    validate(object) {
      const errs = validateService(object, names);
      return errs.length > 0 ? errs : allocationErrors(object);
    },
    validateUpdate(object, old) {
      const errs = validateServiceUpdate(object, old, names);
      return errs.length > 0 ? errs : allocationErrors(object);
    },
  });
  return {
    ...strategy,
    writeHooks: {
      beginWrite: (object, options) => allocator.commit(object, options),
      afterRemove: (object, options) => allocator.release(object, options),
    },
  };
}
