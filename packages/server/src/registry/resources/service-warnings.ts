/**
 * The warnings kube-apiserver 1.27 returns for a Service (pkg/api/service GetWarningsForService): the deprecated
 * topology-aware-hints annotation, and addresses Go's netip parser will refuse (IPv4 with leading zeros) or that
 * are not in RFC 5952 canonical form (IPv6), in cluster IPs, external IPs, the load balancer IP and source ranges.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { list, obj, text } from './field-checks.js';

/** Go's netip.ParseAddr error for an IPv4 address with a leading zero in one of its fields. */
function leadingZero(address: string): string | undefined {
  const fields = address.split('.');
  if (fields.length !== 4 || !fields.every((f) => /^\d{1,3}$/.test(f))) return undefined;
  return fields.some((f) => f.length > 1 && f.startsWith('0')) ? `ParseAddr(${JSON.stringify(address)}): IPv4 field has octet with leading zero` : undefined;
}

/** RFC 5952 form of an IPv6 address (the WHATWG URL serializer writes it), or undefined for other text. */
function canonicalIPv6(address: string): string | undefined {
  if (!address.includes(':') || address.includes('.')) return undefined;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** getWarningsForIP. */
function ipWarnings(path: string, address: string): string[] {
  const zero = leadingZero(address);
  if (zero !== undefined) return [`${path}: IP address was accepted, but will be invalid in a future Kubernetes release: ${zero}`];
  const canonical = canonicalIPv6(address);
  if (canonical !== undefined && canonical !== address) {
    return [`${path}: IPv6 address ${JSON.stringify(address)} is not in RFC 5952 canonical format (${JSON.stringify(canonical)}), which may cause controller apply-loops`];
  }
  return [];
}

/** getWarningsForCIDR: the address part of a CIDR, as getWarningsForIP words it. */
function cidrWarnings(path: string, cidr: string): string[] {
  const slash = cidr.indexOf('/');
  if (slash < 0) return [];
  const address = cidr.slice(0, slash);
  const zero = leadingZero(address);
  if (zero !== undefined) return [`${path}: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix(${JSON.stringify(cidr)}): ${zero}`];
  const canonical = canonicalIPv6(address);
  if (canonical !== undefined && canonical !== address) {
    const prefix = `${canonical}${cidr.slice(slash)}`;
    return [`${path}: IPv6 prefix ${JSON.stringify(cidr)} is not in RFC 5952 canonical format (${JSON.stringify(prefix)}), which may cause controller apply-loops`];
  }
  return [];
}

/** GetWarningsForService. */
export function serviceWarnings(object: KubeObject, names: Names): string[] {
  const spec = obj(object['spec']);
  const out: string[] = [];
  const hints = names.domain('topology-aware-hints', 'service');
  if (object.metadata?.annotations?.[hints] !== undefined) out.push(`annotation ${hints} is deprecated, please use ${names.domain('topology-mode', 'service')} instead`);
  const ips = list(spec['clusterIPs']).map(text);
  if (!(ips.length === 0 || ips[0] === 'None' || ips[0] === '')) ips.forEach((ip, i) => out.push(...ipWarnings(`spec.clusterIPs[${i}]`, ip)));
  list(spec['externalIPs']).forEach((ip, i) => out.push(...ipWarnings(`spec.externalIPs[${i}]`, text(ip))));
  if (text(spec['loadBalancerIP']) !== '') out.push(...ipWarnings('spec.loadBalancerIP', text(spec['loadBalancerIP'])));
  list(spec['loadBalancerSourceRanges']).forEach((cidr, i) => out.push(...cidrWarnings(`spec.loadBalancerSourceRanges[${i}]`, text(cidr))));
  return out;
}
