/**
 * ValidateService and ValidateServiceUpdate of kube-apiserver 1.27 (pkg/apis/core/validation): ports (names,
 * numbers, protocols, target ports, app protocols, duplicates of port and of node port), the type and what each
 * type forbids (node ports on ClusterIP, cluster IPs and families on ExternalName, headless NodePort and
 * LoadBalancer), the kubelet port on load balancers, session affinity, cluster IPs with their families and policy,
 * external IPs, load balancer source ranges, node port allocation and class, traffic policies and the health check
 * node port; on update, cluster IPs and families only upgraded or downgraded by the rules, the load balancer class
 * and health check node port fixed. ValidateLoadBalancerStatus for the status subresource.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import {
  cidrErrors, dns1123Label, dns1123Subdomain, ipErrors, ipFamilyOf, isDualStack, isSet, list, nonSpecialIpErrors, num, obj, objects, oneOf,
  portNumErrors, portNumOrName, protocolErrors, qualifiedName, text, type Json,
} from './field-checks.js';
import { validateLabelMap } from './label-checks.js';
import { coreMetaErrors } from './core-meta.js';

const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const kubeletPort = 10250;

/**
 * Whether a Service takes an external traffic policy in 1.27: load balancers and node ports (external IPs of a
 * ClusterIP Service count only from 1.28).
 */
export function externallyAccessible(spec: Json): boolean {
  return spec['type'] === 'LoadBalancer' || spec['type'] === 'NodePort';
}

/** apiservice.NeedsHealthCheck: a load balancer with the Local external traffic policy. */
export function needsHealthCheck(spec: Json): boolean {
  return spec['type'] === 'LoadBalancer' && spec['externalTrafficPolicy'] === 'Local';
}

function isHeadless(spec: Json): boolean {
  const ips = list(spec['clusterIPs']);
  return ips.length === 1 && ips[0] === 'None';
}

/** ValidateServiceClusterIPsRelatedFields. */
function clusterIpErrors(spec: Json): FieldError[] {
  if (spec['type'] === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = list(spec['clusterIPs']).map(text);
  const clusterIp = text(spec['clusterIP']);
  if (clusterIp !== '') {
    if (ips.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (ips[0] !== clusterIp) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(fieldError.invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified'));
  }
  const families = list(spec['ipFamilies']).map(text);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  if (isSet(spec['ipFamilyPolicy'])) errs.push(...oneOf(spec['ipFamilyPolicy'], 'spec.ipFamilyPolicy', ['PreferDualStack', 'RequireDualStack', 'SingleStack'], false));
  let invalidIps = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIps = true;
        errs.push(fieldError.invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = ipErrors(ip, `spec.clusterIPs[${i}]`);
    if (ipErrs.length > 0) invalidIps = true;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'may only hold up to 2 values'));
  if (invalidIps) return errs;
  if (ips.length > 1 && !isDualStack(ips.map(ipFamilyOf))) errs.push(fieldError.invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family'));
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      const family = families[i];
      if (family === 'IPv4' && ipFamilyOf(ip) === 6) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (family === 'IPv6' && ipFamilyOf(ip) !== 6) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** validateServicePort. */
function servicePortErrors(p: Json, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(p['name']);
  if (requireName && name === '') errs.push(fieldError.required(`${path}.name`));
  else if (name !== '') {
    errs.push(...dns1123Label(name, `${path}.name`));
    if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  errs.push(...portNumErrors(p['port'], `${path}.port`), ...protocolErrors(p['protocol'], `${path}.protocol`), ...portNumOrName(p['targetPort'], `${path}.targetPort`));
  if (isSet(p['appProtocol'])) errs.push(...qualifiedName(text(p['appProtocol']), `${path}.appProtocol`));
  return errs;
}

/** The topology annotations a Service may carry in a flavour. */
function topologyAnnotations(names: Names): { hints: string; mode: string } {
  return { hints: names.domain('topology-aware-hints', 'service'), mode: names.domain('topology-mode', 'service') };
}

/** ValidateService (1.27). */
export function validateService(object: KubeObject, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const annotations = obj(object.metadata?.annotations);
  const errs = coreMetaErrors(object, names);
  const topology = topologyAnnotations(names);
  if (annotations[topology.mode] !== undefined && annotations[topology.hints] !== undefined && annotations[topology.mode] !== annotations[topology.hints]) {
    errs.push(fieldError.invalid(`metadata.annotations[${topology.mode}]`, annotations[topology.mode], `must match annotations[${topology.hints}] when both are specified`));
  }
  const type = text(spec['type']);
  const ports = objects(spec['ports']);
  if (ports.length === 0 && !isHeadless(spec) && type !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  if (type === 'LoadBalancer') {
    ports.forEach((p, i) => {
      if (p['port'] === kubeletPort) errs.push(fieldError.invalid(`spec.ports[${i}]`, kubeletPort, `may not expose port ${kubeletPort} externally since it is used by kubelet`));
    });
  }
  if ((type === 'LoadBalancer' || type === 'NodePort') && isHeadless(spec)) {
    errs.push(fieldError.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type === 'ExternalName') {
    if (list(spec['clusterIPs']).length > 0) errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (list(spec['ipFamilies']).length > 0) errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (isSet(spec['ipFamilyPolicy'])) errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = text(spec['externalName']).replace(/\.$/, '');
    if (cname !== '') errs.push(...dns1123Subdomain(cname, 'spec.externalName'));
    else errs.push(fieldError.required('spec.externalName'));
  }
  const portNames = new Set<string>();
  ports.forEach((p, i) => errs.push(...servicePortErrors(p, ports.length > 1, portNames, `spec.ports[${i}]`)));
  if (isSet(spec['selector'])) errs.push(...validateLabelMap(spec['selector'], 'spec.selector'));
  const affinity = text(spec['sessionAffinity']);
  if (affinity === '') errs.push(fieldError.required('spec.sessionAffinity'));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  const config = spec['sessionAffinityConfig'];
  if (affinity === 'ClientIP') {
    const clientIp = obj(config)['clientIP'];
    const timeout = obj(clientIp)['timeoutSeconds'];
    if (!isSet(config)) errs.push(fieldError.required('spec.sessionAffinityConfig', 'when session affinity type is ClientIP'));
    else if (!isSet(clientIp)) errs.push(fieldError.required('spec.sessionAffinityConfig.clientIP', 'when session affinity type is ClientIP'));
    else if (!isSet(timeout)) errs.push(fieldError.required('spec.sessionAffinityConfig.clientIP.timeoutSeconds', 'when session affinity type is ClientIP'));
    else if (num(timeout) <= 0 || num(timeout) > 86400) errs.push(fieldError.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, 'must be greater than 0 and less than 86400'));
  } else if (affinity === 'None' && isSet(config)) {
    errs.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...clusterIpErrors(spec));
  list(spec['externalIPs']).forEach((ip, i) => {
    const bad = ipErrors(ip, `spec.externalIPs[${i}]`);
    errs.push(...(bad.length > 0 ? bad : nonSpecialIpErrors(ip, `spec.externalIPs[${i}]`)));
  });
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!types.includes(type)) errs.push(fieldError.notSupported('spec.type', type, types));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (num(p['nodePort']) !== 0) errs.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (num(p['nodePort']) === 0) return;
    const key = `${text(p['protocol'])}/${num(p['nodePort'])}`;
    if (nodePorts.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, p['nodePort']));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${text(p['protocol'])}/${num(p['port'])}`;
    if (portKeys.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}]`, { protocol: text(p['protocol']), port: num(p['port']) }));
    portKeys.add(key);
  });
  const ranges = list(spec['loadBalancerSourceRanges']);
  const rangesAnnotation = names.domain('load-balancer-source-ranges', 'service.beta');
  if (ranges.length > 0) {
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => errs.push(...cidrErrors(text(r).trim(), `spec.LoadBalancerSourceRanges[${i}]`)));
  } else if (annotations[rangesAnnotation] !== undefined) {
    const at = `metadata.annotations[${rangesAnnotation}]`;
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(at, "may only be used when `type` is 'LoadBalancer'"));
    const value = text(annotations[rangesAnnotation]).trim();
    if (value !== '') for (const cidr of value.split(',')) errs.push(...cidrErrors(cidr.trim(), at));
  }
  if (isSet(spec['allocateLoadBalancerNodePorts']) && type !== 'LoadBalancer') {
    errs.push(fieldError.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && !isSet(spec['allocateLoadBalancerNodePorts'])) errs.push(fieldError.required('allocateLoadBalancerNodePorts'));
  if (isSet(spec['loadBalancerClass'])) {
    if (type === 'LoadBalancer') errs.push(...qualifiedName(text(spec['loadBalancerClass']), 'spec.loadBalancerClass'));
    else errs.push(fieldError.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  const etp = text(spec['externalTrafficPolicy']);
  if (!externallyAccessible(spec)) {
    if (etp !== '') errs.push(fieldError.invalid('spec.externalTrafficPolicy', etp, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
  } else {
    errs.push(...oneOf(etp, 'spec.externalTrafficPolicy', ['Cluster', 'Local'], true));
  }
  const hc = num(spec['healthCheckNodePort']);
  if (!needsHealthCheck(spec)) {
    if (hc !== 0) errs.push(fieldError.invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) errs.push(fieldError.required('spec.healthCheckNodePort'));
  else errs.push(...portNumErrors(hc, 'spec.healthCheckNodePort'));
  if (!isSet(spec['internalTrafficPolicy'])) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(fieldError.required('spec.internalTrafficPolicy'));
  } else errs.push(...oneOf(spec['internalTrafficPolicy'], 'spec.internalTrafficPolicy', ['Cluster', 'Local'], false));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs and validateUpgradeDowngradeIPFamilies. */
function upgradeDowngradeErrors(spec: Json, before: Json): FieldError[] {
  if (spec['type'] === 'ExternalName' || before['type'] === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = list(spec['clusterIPs']).map(text);
  const oldIps = list(before['clusterIPs']).map(text);
  const singleStack = spec['ipFamilyPolicy'] === 'SingleStack';
  if (!(isHeadless(spec) && isHeadless(before))) {
    if (oldIps.length === ips.length) {
      oldIps.forEach((ip, i) => {
        if (ip !== ips[i]) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set'));
      });
    } else if (oldIps.length > ips.length) {
      if (ips.length === 0) errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset'));
      if (oldIps.length > 0 && ips.length > 0 && ips[0] !== oldIps[0]) errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
      if (ips.length === 1 && !singleStack) errs.push(fieldError.invalid('spec.ipFamilyPolicy', spec['ipFamilyPolicy'] ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    } else if (oldIps.length > 0 && ips[0] !== oldIps[0]) {
      errs.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
    }
  }
  if (isHeadless(spec) !== isHeadless(before) || isHeadless(spec)) return errs;
  const families = list(spec['ipFamilies']).map(text);
  const oldFamilies = list(before['ipFamilies']).map(text);
  if (oldFamilies.length === families.length) {
    oldFamilies.forEach((f, i) => {
      if (f !== families[i]) errs.push(fieldError.invalid('spec.ipFamilies[0]', families, 'may not change once set'));
    });
  } else if (oldFamilies.length > families.length) {
    if (ips.length === 0) errs.push(fieldError.invalid('spec.ipFamilies[0]', families, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0]) errs.push(fieldError.invalid('spec.ipFamilies[0]', ips, 'may not change once set'));
    if (families.length === 1 && !singleStack) errs.push(fieldError.invalid('spec.ipFamilyPolicy', spec['ipFamilyPolicy'] ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errs.push(fieldError.invalid('spec.ipFamilies[0]', ips, 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate (1.27). */
export function validateServiceUpdate(object: KubeObject, old: KubeObject, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const before = obj(old['spec']);
  const errs = upgradeDowngradeErrors(spec, before);
  if (before['type'] === 'LoadBalancer' && spec['type'] === 'LoadBalancer' && spec['loadBalancerClass'] !== before['loadBalancerClass']) {
    errs.push(fieldError.invalid('spec.loadBalancerClass', spec['loadBalancerClass'] ?? null, 'may not change once set'));
  }
  if (needsHealthCheck(before) && needsHealthCheck(spec) && num(spec['healthCheckNodePort']) !== num(before['healthCheckNodePort'])) {
    errs.push(fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...errs, ...validateService(object, names)];
}

/** ValidateLoadBalancerStatus (1.27): ingress only on load balancers, each a valid IP or DNS name. */
export function validateServiceStatus(object: KubeObject): FieldError[] {
  const ingress = objects(obj(obj(object.status)['loadBalancer'])['ingress']);
  const errs: FieldError[] = [];
  ingress.forEach((ing, i) => {
    const at = `status.loadBalancer.ingress[${i}]`;
    if (text(ing['ip']) !== '') errs.push(...ipErrors(ing['ip'], `${at}.ip`));
    const hostname = text(ing['hostname']);
    if (hostname !== '') {
      errs.push(...dns1123Subdomain(hostname, `${at}.hostname`));
      if (ipFamilyOf(hostname) !== undefined) errs.push(fieldError.invalid(`${at}.hostname`, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
