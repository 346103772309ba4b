/**
 * Services (pkg/registry/core/service, SetDefaults_Service, ValidateService): named by DNS-1035 label, status
 * subresource; `type` ClusterIP, `sessionAffinity` None (ClientIP gets a 10800 s timeout), ports' `protocol` TCP
 * and `targetPort` = `port`, `internalTrafficPolicy` Cluster, `externalTrafficPolicy` Cluster for NodePort and
 * LoadBalancer, `ipFamilies` [IPv4] and `ipFamilyPolicy` SingleStack (RequireDualStack for a headless Service
 * without a selector); a cluster IP from `--service-cluster-ip-range`
 * and node ports from `--service-node-port-range` (allocators/), conflicts rejected; `clusterIP` immutable. The
 * allocations are claimed in the store's range records around each write (kube's BeginCreate/BeginUpdate) and freed
 * after a delete, so several servers on one store never hand out the same address or port.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain } from '../../meta/name-rules.js';
import { parseIpRange, parsePortRange } from '../allocators/ip-range.js';
import { createServiceAllocator, type ServiceAllocator } from '../allocators/service-allocator.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { child, sameJson, setDefault, specOf, validateLabelMap, validatePortNumber } from './pod-spec.js';
import { portNameErrors } from './pod-spec-checks.js';

type Json = Record<string, unknown>;

const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];

/** SetDefaults_Service and the strategy's ip family defaults, in place. */
export function defaultService(spec: Record<string, unknown>): void {
  setDefault(spec, 'type', 'ClusterIP');
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec['sessionAffinity'] === 'ClientIP') {
    setDefault(child(child(spec, 'sessionAffinityConfig'), 'clientIP'), 'timeoutSeconds', 10800);
  }
  for (const raw of Array.isArray(spec['ports']) ? spec['ports'] : []) {
    const p = record(raw);
    if (p === undefined) continue;
    setDefault(p, 'protocol', 'TCP');
    if (p['targetPort'] === undefined || p['targetPort'] === 0 || p['targetPort'] === '') p['targetPort'] = p['port'];
  }
  if (spec['type'] === 'ExternalName') return;
  setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer') setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  setDefault(spec, 'ipFamilies', ['IPv4']);
  // A headless Service without a selector has no IPs of its own: kube asks for every family the cluster has.
  const selector = record(spec['selector']);
  const headlessWithoutSelector = spec['clusterIP'] === 'None' && (selector === undefined || Object.keys(selector).length === 0);
  setDefault(spec, 'ipFamilyPolicy', headlessWithoutSelector ? 'RequireDualStack' : 'SingleStack');
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

function validateService(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const type = spec['type'];
  if (!types.includes(String(type))) errs.push(fieldError.notSupported('spec.type', type, types));
  const ports = Array.isArray(spec['ports']) ? spec['ports'] : [];
  const headless = spec['clusterIP'] === 'None';
  if (type === 'ExternalName') {
    const name = spec['externalName'];
    if (typeof name !== 'string' || name === '') errs.push(fieldError.required('spec.externalName'));
    else for (const msg of isDns1123Subdomain(name.replace(/\.$/, ''))) errs.push(fieldError.invalid('spec.externalName', name, msg));
  } else if (ports.length === 0 && !headless) errs.push(fieldError.required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const p = record(raw) ?? {};
    const at = `spec.ports[${i}]`;
    const name = p['name'];
    if (ports.length > 1 && (typeof name !== 'string' || name === '')) errs.push(fieldError.required(`${at}.name`));
    if (typeof name === 'string' && name !== '') {
      for (const msg of isDns1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
    errs.push(...validatePortNumber(`${at}.port`, p['port']));
    if (!protocols.includes(String(p['protocol']))) errs.push(fieldError.notSupported(`${at}.protocol`, p['protocol'], protocols));
    if (typeof p['targetPort'] === 'number') errs.push(...validatePortNumber(`${at}.targetPort`, p['targetPort']));
    else if (typeof p['targetPort'] === 'string') for (const msg of portNameErrors(p['targetPort'])) errs.push(fieldError.invalid(`${at}.targetPort`, p['targetPort'], msg));
    if (p['nodePort'] !== undefined && p['nodePort'] !== 0 && type !== 'NodePort' && type !== 'LoadBalancer') {
      errs.push(fieldError.forbidden(`${at}.nodePort`, 'may not be used when `type` is \'ClusterIP\''));
    }
  });
  const seen = new Set<string>();
  ports.forEach((raw, i) => {
    const p = record(raw) ?? {};
    const key = `${String(p['protocol'])}/${String(p['port'])}`;
    if (seen.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}]`, { protocol: p['protocol'], port: p['port'] }));
    seen.add(key);
  });
  const affinity = spec['sessionAffinity'];
  if (affinity !== 'None' && affinity !== 'ClientIP') errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  const affinityConfig = record(spec['sessionAffinityConfig']);
  if (affinity === 'None' && affinityConfig !== undefined) {
    errs.push(fieldError.invalid('spec.sessionAffinityConfig', affinityConfig, 'must not be set when session affinity is None'));
  }
  const timeout = record(affinityConfig?.['clientIP'])?.['timeoutSeconds'];
  if (affinity === 'ClientIP' && typeof timeout === 'number' && (timeout <= 0 || timeout > 86400)) {
    errs.push(fieldError.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, 'must be greater than 0 and less than 86400'));
  }
  const enumerated = (path: string, value: unknown, allowed: readonly string[]): void => {
    if (value !== undefined && value !== null && !allowed.includes(String(value))) errs.push(fieldError.notSupported(path, value, allowed));
  };
  enumerated('spec.externalTrafficPolicy', spec['externalTrafficPolicy'] === '' ? undefined : spec['externalTrafficPolicy'], ['Cluster', 'Local']);
  enumerated('spec.internalTrafficPolicy', spec['internalTrafficPolicy'], ['Cluster', 'Local']);
  enumerated('spec.ipFamilyPolicy', spec['ipFamilyPolicy'], ['PreferDualStack', 'RequireDualStack', 'SingleStack']);
  (Array.isArray(spec['ipFamilies']) ? spec['ipFamilies'] : []).forEach((f, i) => enumerated(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
  const clusterIps = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : [];
  if (clusterIps.length > 0 && typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && clusterIps[0] !== spec['clusterIP']) {
    errs.push(fieldError.invalid('spec.clusterIPs', clusterIps, 'first value must match `clusterIP`'));
  }
  const externallyAccessible = type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && Array.isArray(spec['externalIPs']) && spec['externalIPs'].length > 0);
  if (!externallyAccessible && spec['externalTrafficPolicy'] !== undefined && spec['externalTrafficPolicy'] !== '') {
    errs.push(fieldError.invalid('spec.externalTrafficPolicy', spec['externalTrafficPolicy'], 'may only be set for externally-accessible services'));
  }
  errs.push(...validateLabelMap(spec['selector'], 'spec.selector'));
  return errs;
}

function validateServiceUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateService(object);
  const spec = record(object['spec']) ?? {};
  const before = record(old['spec']) ?? {};
  const wasIp = typeof before['clusterIP'] === 'string' && before['clusterIP'] !== '';
  if (wasIp && spec['type'] !== 'ExternalName' && before['type'] !== 'ExternalName' && spec['clusterIP'] !== before['clusterIP']) {
    errs.push(fieldError.invalid('spec.clusterIPs[0]', spec['clusterIP'] ?? '', 'may not change once set'));
  }
  return errs;
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
export function serviceStrategy(allocator: ServiceAllocator = defaultAllocator()): Strategy {
  // Allocation errors found while preparing are reported by the validation that follows (same object).
  const pending = new WeakMap<KubeObject, FieldError[]>();
  const allocationErrors = (object: KubeObject): FieldError[] => pending.get(object) ?? [];
  const strategy = defineStrategy({
    nameRule: 'dns1035Label',
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate(object) {
      const spec = specOf(object);
      object.status = { loadBalancer: {} };
      defaultService(spec);
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
      dropTypeDependentFields(object, old);
      defaultService(spec);
      if (spec['type'] !== 'ExternalName') pending.set(object, allocator.allocate(object, old));
    },
    // kube allocates in BeginCreate/BeginUpdate, after validation passed: allocation errors only show on a valid object.
    validate(object) {
      const errs = validateService(object);
      return errs.length > 0 ? errs : allocationErrors(object);
    },
    validateUpdate(object, old) {
      const errs = validateServiceUpdate(object, old);
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
