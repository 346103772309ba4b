/**
 * Cluster IPs and node ports of Services (kube's ipallocator and portallocator behind the service REST storage).
 *
 * Two layers. The stored allocation records (range-allocation.ts, kube's `/registry/ranges/serviceips` and
 * `/registry/ranges/servicenodeports` bitmaps) are the truth shared by every server on the store: a write claims
 * its new addresses and ports there by compare-and-swap before the Service is stored ({@link ServiceAllocator.commit},
 * kube's BeginCreate/BeginUpdate), gives them back when the write fails, and a delete frees them
 * ({@link ServiceAllocator.release}). A dry run checks the records and writes nothing.
 *
 * In front of them, this server's view of the stored Services (fed by a watch, service-allocation-feed.ts) picks
 * candidates and reports conflicts with the validation errors; an allocation made for a write stays reserved here
 * for a short while until the stored Service confirms it. A candidate another server claimed meanwhile is replaced
 * by a free one from the record. The repair pass ({@link ServiceAllocator.repair}, kube's repair controllers)
 * marks what the stored Services hold and frees what none has held for several passes.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Backend } from '../../storage/backend.js';
import { ipv4ToNumber, type IpRange, type PortRange } from './ip-range.js';
import { rangeAllocation, serviceIpsKey, serviceNodePortsKey, type Bitmap, type RangeAllocation } from './range-allocation.js';

/** How long an unconfirmed allocation stays reserved. */
const reservationMs = 30_000;

/** How many repair passes an address or port must be found held by no Service before it is freed (kube's). */
const repairsBeforeLeakCleanup = 3;

/** What {@link ServiceAllocator.commit} answers: errors, or a step to run once the storage write is done. */
export interface Commit {
  readonly errors: FieldError[];
  /** Gives back the claims when the write failed; frees what an update dropped when it succeeded. */
  finish(success: boolean): Promise<void>;
}

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
  /**
   * Claims in the stored records what {@link allocate} picked for `service` (the same object), replacing a picked
   * candidate another server took meanwhile; with `dryRun`, only checks. No stored records: nothing to do.
   */
  commit(service: KubeObject, options: { dryRun: boolean }): Promise<Commit>;
  /** Frees a deleted Service's addresses and ports in the stored records. */
  release(service: KubeObject, options: { dryRun: boolean }): Promise<void>;
  /** Marks in the stored records what the observed Services hold; frees what none held for several passes. */
  repair(): Promise<void>;
}

/** Options of {@link createServiceAllocator}. */
export interface ServiceAllocatorOptions {
  /** The store shared by every server: allocations are claimed in its range records. Absent: this view only. */
  readonly backend?: Backend;
}

/** One address or port a write needs that its old object did not hold. */
interface Claim {
  readonly value: number;
  /** Asked for by the client (a conflict is an error) rather than picked (a conflict picks another). */
  readonly requested: boolean;
  readonly field: string;
  /** The value as the client wrote it (error messages). */
  readonly shown: unknown;
  /** Puts a replacement value in the object. */
  readonly assign: (value: number) => void;
}

/** What a write claims and what it gives up (an update dropping node ports). */
interface Plan {
  readonly ips: Claim[];
  readonly ports: Claim[];
  readonly releasedIps: number[];
  readonly releasedPorts: number[];
}

/** One kind of stored record with how values map to its offsets. */
interface Ledger {
  readonly record: RangeAllocation;
  readonly offset: (value: number) => number;
  readonly value: (offset: number) => number;
  /** Offsets never picked (the first cluster IP, left for the API service). */
  readonly reserved: (offset: number) => boolean;
  readonly taken: (c: Claim) => string;
  readonly full: FieldError;
  /** Repair passes each apparently leaked offset was seen in. */
  readonly leaks: Map<number, number>;
}

interface Claimed {
  readonly errors: FieldError[];
  /** Offsets set in the record. */
  readonly offsets: number[];
  /** Picked values replaced, by claim index. */
  readonly replaced: Map<number, number>;
}

/** Claims `claims` in a ledger by compare-and-swap (requested ones first, so picks avoid them). */
async function claimIn(ledger: Ledger, claims: readonly Claim[], dryRun: boolean): Promise<Claimed> {
  if (claims.length === 0) return { errors: [], offsets: [], replaced: new Map() };
  const order = claims.map((c, i) => ({ c, i })).sort((x, y) => Number(y.c.requested) - Number(x.c.requested));
  return ledger.record.transact((bits: Bitmap) => {
    const errors: FieldError[] = [];
    const offsets: number[] = [];
    const replaced = new Map<number, number>();
    for (const { c, i } of order) {
      let at = ledger.offset(c.value);
      if (bits.has(at)) {
        if (c.requested) {
          errors.push(fieldError.invalid(c.field, c.shown, ledger.taken(c)));
          continue;
        }
        const start = Math.floor(Math.random() * bits.size);
        let found: number | undefined;
        for (let k = 0; k < bits.size && found === undefined; k++) {
          const o = (start + k) % bits.size;
          if (!bits.has(o) && !(ledger.reserved(o) && bits.size > 1)) found = o;
        }
        if (found === undefined) {
          errors.push(ledger.full);
          continue;
        }
        at = found;
        replaced.set(i, ledger.value(at));
      }
      bits.set(at);
      offsets.push(at);
    }
    return { write: !dryRun && errors.length === 0, result: { errors, offsets, replaced } };
  });
}

/** Clears offsets in a ledger's record. */
async function clearIn(ledger: Ledger, offsets: readonly number[]): Promise<void> {
  if (offsets.length === 0) return;
  await ledger.record.transact((bits) => {
    const held = offsets.filter((o) => bits.has(o));
    for (const o of held) bits.clear(o);
    return { write: held.length > 0, result: undefined };
  });
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
export function createServiceAllocator(
  ipRange: IpRange, portRange: PortRange, now: () => number = Date.now, options: ServiceAllocatorOptions = {},
): ServiceAllocator {
  const ips = new Map<string, Holder>();
  const plans = new WeakMap<KubeObject, Plan>();
  const ipOffset = (ip: number): number => ip - ipRange.first;
  const backend = options.backend;
  const ledgers = backend === undefined ? undefined : {
    ips: {
      record: rangeAllocation(backend, serviceIpsKey, ipRange.cidr, ipRange.size),
      offset: ipOffset,
      value: (o: number) => ipRange.first + o,
      reserved: (o: number) => o === 0,
      taken: (c: Claim) => {
        const ip = ipRange.at(ipOffset(c.value));
        return `failed to allocate IP ${ip}: provided IP is already allocated`;
      },
      full: fieldError.internal('spec.clusterIPs', 'failed to allocate a serviceIP: range is full'),
      leaks: new Map<number, number>(),
    },
    ports: {
      record: rangeAllocation(backend, serviceNodePortsKey, portRange.text, portRange.size),
      offset: (p: number) => p - portRange.base,
      value: (o: number) => portRange.base + o,
      reserved: () => false,
      taken: () => 'provided port is already allocated',
      full: fieldError.internal('spec.ports', 'failed to allocate a nodePort: range is full'),
      leaks: new Map<number, number>(),
    },
  } satisfies Record<string, Ledger>;
  const inIpRange = (ip: string): number | undefined => (ipRange.contains(ip) ? ipv4ToNumber(ip) : undefined);
  const inPortRange = (p: number): boolean => p >= portRange.base && p < portRange.base + portRange.size;
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
      const plan: Plan = { ips: [], ports: [], releasedIps: [], releasedPorts: [] };
      const setIp = (n: number): void => {
        spec['clusterIP'] = ipRange.at(ipOffset(n));
        spec['clusterIPs'] = [spec['clusterIP']];
      };
      if (spec['type'] !== 'ExternalName' && spec['clusterIP'] !== 'None') {
        const requested = typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' ? spec['clusterIP'] : undefined;
        const kept = old !== undefined ? ipsOf(old)[0] : undefined;
        if (requested !== undefined && requested !== kept) {
          if (!ipRange.contains(requested)) {
            errs.push(fieldError.invalid('spec.clusterIPs[0]', requested, `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${ipRange.cidr}`));
          } else if (!free(ips, requested, owner)) {
            errs.push(fieldError.invalid('spec.clusterIPs[0]', requested, `failed to allocate IP ${requested}: provided IP is already allocated`));
          } else {
            reserve(ips, requested, owner);
            plan.ips.push({ value: ipv4ToNumber(requested)!, requested: true, field: 'spec.clusterIPs[0]', shown: requested, assign: setIp });
          }
        } else if (requested === undefined) {
          const ip = kept ?? pick(ips, ipRange.size, (n) => ipRange.at(n), owner, (ip) => ip === ipRange.at(0) && ipRange.size > 1);
          if (ip === undefined) errs.push(fieldError.internal('spec.clusterIPs', `failed to allocate a serviceIP: range is full`));
          else {
            if (kept === undefined) {
              reserve(ips, ip, owner);
              plan.ips.push({ value: ipv4ToNumber(ip)!, requested: false, field: 'spec.clusterIPs', shown: ip, assign: setIp });
            }
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
            } else {
              reserve(ports, n, owner);
              plan.ports.push({ value: n, requested: true, field: `spec.ports[${i}].nodePort`, shown: n, assign: (v) => { p['nodePort'] = v; } });
            }
          }
        });
        list.forEach((raw, i) => {
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
          plan.ports.push({ value: n, requested: false, field: `spec.ports[${i}].nodePort`, shown: n, assign: (v) => { p['nodePort'] = v; } });
        });
      }
      if (errs.length === 0) {
        if (old !== undefined) {
          // What the old Service held and this one no longer does is freed once the update is stored.
          const nowIps = new Set(ipsOf(service));
          const nowPorts = new Set(nodePortsOf(service));
          for (const ip of ipsOf(old)) if (!nowIps.has(ip) && inIpRange(ip) !== undefined) plan.releasedIps.push(inIpRange(ip)!);
          for (const p of nodePortsOf(old)) if (!nowPorts.has(p) && inPortRange(p)) plan.releasedPorts.push(p);
        }
        plans.set(service, plan);
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
    async commit(service, { dryRun }) {
      const plan = plans.get(service);
      plans.delete(service);
      const none: Commit = { errors: [], finish: async () => {} };
      if (ledgers === undefined || plan === undefined) return none;
      const owner = ownerOf(service);
      // A write that claims nothing in the end does not keep this view's reservations either.
      const unreserve = (): void => {
        for (const c of plan.ips) {
          const ip = ipRange.at(ipOffset(c.value));
          if (ips.get(ip)?.owner === owner && ips.get(ip)?.expires !== undefined) ips.delete(ip);
        }
        for (const c of plan.ports) if (ports.get(c.value)?.owner === owner && ports.get(c.value)?.expires !== undefined) ports.delete(c.value);
      };
      const claimedIps = await claimIn(ledgers.ips, plan.ips, dryRun);
      if (claimedIps.errors.length > 0) {
        unreserve();
        return { ...none, errors: claimedIps.errors };
      }
      let claimedPorts: Claimed;
      try {
        claimedPorts = await claimIn(ledgers.ports, plan.ports, dryRun);
      } catch (e) {
        if (!dryRun) await clearIn(ledgers.ips, claimedIps.offsets).catch(() => {});
        throw e;
      }
      if (claimedPorts.errors.length > 0) {
        if (!dryRun) await clearIn(ledgers.ips, claimedIps.offsets);
        unreserve();
        return { ...none, errors: claimedPorts.errors };
      }
      for (const [i, v] of claimedIps.replaced) {
        plan.ips[i]!.assign(v);
        reserve(ips, ipRange.at(ipOffset(v)), owner);
      }
      for (const [i, v] of claimedPorts.replaced) {
        plan.ports[i]!.assign(v);
        reserve(ports, v, owner);
      }
      return {
        errors: [],
        async finish(success) {
          if (dryRun) {
            unreserve();
            return;
          }
          if (!success) {
            unreserve();
            await clearIn(ledgers.ips, claimedIps.offsets);
            await clearIn(ledgers.ports, claimedPorts.offsets);
            return;
          }
          await clearIn(ledgers.ips, plan.releasedIps.map(ipOffset));
          await clearIn(ledgers.ports, plan.releasedPorts.map(ledgers.ports.offset));
        },
      };
    },
    async release(service, { dryRun }) {
      if (ledgers === undefined || dryRun) return;
      const held = ipsOf(service).map(inIpRange).filter((n): n is number => n !== undefined);
      await clearIn(ledgers.ips, held.map(ipOffset));
      await clearIn(ledgers.ports, nodePortsOf(service).filter(inPortRange).map(ledgers.ports.offset));
    },
    async repair() {
      if (ledgers === undefined) return;
      const heldIps = new Set<number>();
      const heldPorts = new Set<number>();
      for (const entry of byKey.values()) {
        for (const ip of entry.ips) {
          const n = inIpRange(ip);
          if (n !== undefined) heldIps.add(ipOffset(n));
        }
        for (const p of entry.ports) if (inPortRange(p)) heldPorts.add(ledgers.ports.offset(p));
      }
      // Reservations of writes in flight here are held too: their Services are not stored yet.
      for (const ip of ips.keys()) {
        const n = inIpRange(ip);
        if (n !== undefined) heldIps.add(ipOffset(n));
      }
      for (const p of ports.keys()) if (inPortRange(p)) heldPorts.add(ledgers.ports.offset(p));
      const pass = (ledger: Ledger, held: Set<number>) => {
        const before = new Map(ledger.leaks);
        return ledger.record.transact((bits) => {
        // A retried pass counts from where this one started.
        ledger.leaks.clear();
        for (const [o, n] of before) ledger.leaks.set(o, n);
        let changed = false;
        for (const o of held) {
          ledger.leaks.delete(o);
          if (!bits.has(o)) {
            bits.set(o);
            changed = true;
          }
        }
        // A bit no Service holds may be another server's write in flight: freed only after several passes.
        for (let o = 0; o < bits.size; o++) {
          if (!bits.has(o) || held.has(o)) {
            ledger.leaks.delete(o);
            continue;
          }
          const seen = (ledger.leaks.get(o) ?? 0) + 1;
          if (seen >= repairsBeforeLeakCleanup) {
            bits.clear(o);
            ledger.leaks.delete(o);
            changed = true;
          } else ledger.leaks.set(o, seen);
        }
        return { write: changed, result: undefined };
        });
      };
      await pass(ledgers.ips, heldIps);
      await pass(ledgers.ports, heldPorts);
    },
  };
}
