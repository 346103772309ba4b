/**
 * An IPv4 service range (`--service-cluster-ip-range`, kube's ipallocator over a CIDR): the network and broadcast
 * addresses are never handed out, as kube's range allocator skips them.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

/** A parsed IPv4 CIDR. */
export interface IpRange {
  readonly cidr: string;
  /** First and last usable address as numbers. */
  readonly first: number;
  readonly last: number;
  contains(ip: string): boolean;
  /** The address at offset `n` from `first`. */
  at(n: number): string;
  readonly size: number;
}

/** The number of a dotted IPv4 address, or undefined. */
export function ipv4ToNumber(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

/** The dotted form of an IPv4 number. */
export function numberToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Parses an IPv4 CIDR with room for at least one address. */
export function parseIpRange(cidr: string): Result<IpRange, string> {
  const [addr, bitsText] = cidr.split('/');
  const base = ipv4ToNumber(addr ?? '');
  const bits = Number(bitsText);
  if (base === undefined || !/^\d+$/.test(bitsText ?? '') || bits < 8 || bits > 30) {
    return fail(`--service-cluster-ip-range: ${JSON.stringify(cidr)} is not an IPv4 CIDR with a prefix length from /8 to /30`);
  }
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const network = (base & mask) >>> 0;
  const broadcast = (network | (~mask >>> 0)) >>> 0;
  const first = network + 1;
  const last = broadcast - 1;
  const normalized = `${numberToIpv4(network)}/${bits}`;
  return ok({
      cidr: normalized, first, last, size: last - first + 1,
      contains(ip) {
        const n = ipv4ToNumber(ip);
        return n !== undefined && n >= first && n <= last;
      },
      at: (n) => numberToIpv4(first + n),
    });
}

/** A port range `30000-32767` (`--service-node-port-range`). */
export interface PortRange {
  readonly base: number;
  readonly size: number;
  readonly text: string;
}

/** Parses `<from>-<to>` (or a single port). */
export function parsePortRange(text: string): Result<PortRange, string> {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const from = Number(m?.[1]);
  const to = m?.[2] !== undefined ? Number(m[2]) : from;
  if (!m || from < 1 || to > 65535 || to < from) return fail(`--service-node-port-range: ${JSON.stringify(text)} is not a port range like 30000-32767`);
  return ok({ base: from, size: to - from + 1, text: `${from}-${to}` });
}
