/**
 * Cluster IPs and node ports of Services (kube's ipallocator and portallocator behind the service REST storage).
 * What is allocated is what the stored Services hold: the allocator's tables are rebuilt from them at start and
 * follow them through a watch (service-allocation-feed.ts), so allocations survive restarts and a deleted
 * Service's IP and ports become free again. An allocation made for a write stays reserved for a short while until
 * the stored Service confirms it; a write that fails (validation, dry run, conflict) lets it lapse.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { type IpRange, type PortRange } from './ip-range.js';

/** How long an unconfirmed allocation stays reserved. */
const reservationMs = 30_000;

/** The allocator of one server. */
export interface ServiceAllocator {
  readonly ipRange: IpRange;
  readonly portRange: PortRange;
  /**
   * Fills `spec.clusterIP`/`clusterIPs` and missing node ports of `service` (an `old` Service keeps its own),
   * and checks requested ones: 422 field errors for an address or port outside the range or held by another
   * Service.
   */
  allocate(service: KubeObject, old?: KubeObject): FieldError[];
  /** A stored Service appeared or changed (`undefined` object: it was deleted). */
  observe(key: string, service: KubeObject | undefined): void;
  /** Forgets every stored Service (the feed starts again). */
  reset(): void;
}

interface Holder {
  readonly owner: string;
  /** Set for a reservation not yet confirmed by storage. */
  readonly expires?: number;
}

function ownerOf(service: KubeObject): string {
  return `${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`;
}

function ipsOf(service: KubeObject): string[] {
  const spec = record(service['spec']) ?? {};
  const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'].map(String) : typeof spec['clusterIP'] === 'string' ? [spec['clusterIP']] : [];
  return ips.filter((ip) => ip !== '' && ip !== 'None');
}

function nodePortsOf(service: KubeObject): number[] {
  const spec = record(service['spec']) ?? {};
  const out: number[] = [];
  for (const p of Array.isArray(spec['ports']) ? spec['ports'] : []) {
    const n = record(p)?.['nodePort'];
    if (typeof n === 'number' && n > 0) out.push(n);
  }
  const health = spec['healthCheckNodePort'];
  if (typeof health === 'number' && health > 0) out.push(health);
  return out;
}

/** Whether a type of Service gets node ports. */
function wantsNodePorts(spec: Record<string, unknown>): boolean {
  if (spec['type'] === 'NodePort') return true;
  return spec['type'] === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false;
}

/** Creates the allocator over the configured ranges. */
export function createServiceAllocator(ipRange: IpRange, portRange: PortRange, now: () => number = Date.now): ServiceAllocator {
  const ips = new Map<string, Holder>();
  const ports = new Map<number, Holder>();
  const byKey = new Map<string, { owner: string; ips: string[]; ports: number[] }>();

  const free = <K>(table: Map<K, Holder>, key: K, owner: string): boolean => {
    const h = table.get(key);
    if (h === undefined || h.owner === owner) return true;
    if (h.expires !== undefined && h.expires < now()) {
      table.delete(key);
      return true;
    }
    return false;
  };
  const reserve = <K>(table: Map<K, Holder>, key: K, owner: string): void => {
    if (table.get(key)?.expires === undefined && table.has(key)) return;
    table.set(key, { owner, expires: now() + reservationMs });
  };
  const pick = <K>(table: Map<K, Holder>, size: number, at: (n: number) => K, owner: string, skip: (k: K) => boolean): K | undefined => {
    const start = Math.floor(Math.random() * size);
    for (let i = 0; i < size; i++) {
      const k = at((start + i) % size);
      if (!skip(k) && free(table, k, owner)) return k;
    }
    return undefined;
  };

  return {
    ipRange,
    portRange,
    allocate(service, old) {
      const spec = record(service['spec']) ?? {};
      const owner = ownerOf(service);
      const errs: FieldError[] = [];
      if (spec['type'] !== 'ExternalName' && spec['clusterIP'] !== 'None') {
        const requested = typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' ? spec['clusterIP'] : undefined;
        const kept = old !== undefined ? ipsOf(old)[0] : undefined;
        if (requested !== undefined && requested !== kept) {
          if (!ipRange.contains(requested)) {
            errs.push(fieldError.invalid('spec.clusterIPs[0]', requested, `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${ipRange.cidr}`));
          } else if (!free(ips, requested, owner)) {
            errs.push(fieldError.invalid('spec.clusterIPs[0]', requested, `failed to allocate IP ${requested}: provided IP is already allocated`));
          } else reserve(ips, requested, owner);
        } else if (requested === undefined) {
          const ip = kept ?? pick(ips, ipRange.size, (n) => ipRange.at(n), owner, (ip) => ip === ipRange.at(0) && ipRange.size > 1);
          if (ip === undefined) errs.push(fieldError.internal('spec.clusterIPs', `failed to allocate a serviceIP: range is full`));
          else {
            if (kept === undefined) reserve(ips, ip, owner);
            spec['clusterIP'] = ip;
          }
        }
        if (errs.length === 0 && typeof spec['clusterIP'] === 'string') spec['clusterIPs'] = [spec['clusterIP']];
      }
      if (wantsNodePorts(spec)) {
        const oldPorts = new Set(old !== undefined ? nodePortsOf(old) : []);
        const taken = new Set<number>();
        const list = Array.isArray(spec['ports']) ? spec['ports'] : [];
        list.forEach((raw, i) => {
          const p = record(raw);
          if (p === undefined) return;
          const n = p['nodePort'];
          if (typeof n === 'number' && n > 0) {
            taken.add(n);
            if (oldPorts.has(n)) return;
            if (n < portRange.base || n >= portRange.base + portRange.size) {
              errs.push(fieldError.invalid(`spec.ports[${i}].nodePort`, n, `provided port is not in the valid range. The range of valid ports is ${portRange.text}`));
            } else if (!free(ports, n, owner)) {
              errs.push(fieldError.invalid(`spec.ports[${i}].nodePort`, n, 'provided port is already allocated'));
            } else reserve(ports, n, owner);
          }
        });
        list.forEach((raw) => {
          const p = record(raw);
          if (p === undefined || (typeof p['nodePort'] === 'number' && p['nodePort'] > 0)) return;
          const n = pick(ports, portRange.size, (k) => portRange.base + k, owner, (k) => taken.has(k));
          if (n === undefined) {
            errs.push(fieldError.internal('spec.ports', 'failed to allocate a nodePort: range is full'));
            return;
          }
          taken.add(n);
          reserve(ports, n, owner);
          p['nodePort'] = n;
        });
      }
      return errs;
    },
    observe(key, service) {
      const before = byKey.get(key);
      if (before !== undefined) {
        for (const ip of before.ips) if (ips.get(ip)?.owner === before.owner && ips.get(ip)?.expires === undefined) ips.delete(ip);
        for (const p of before.ports) if (ports.get(p)?.owner === before.owner && ports.get(p)?.expires === undefined) ports.delete(p);
        byKey.delete(key);
      }
      if (service === undefined) return;
      const owner = ownerOf(service);
      const entry = { owner, ips: ipsOf(service), ports: nodePortsOf(service) };
      for (const ip of entry.ips) ips.set(ip, { owner });
      for (const p of entry.ports) ports.set(p, { owner });
      byKey.set(key, entry);
    },
    reset() {
      byKey.clear();
      for (const [k, h] of ips) if (h.expires === undefined) ips.delete(k);
      for (const [k, h] of ports) if (h.expires === undefined) ports.delete(k);
    },
  };
}
