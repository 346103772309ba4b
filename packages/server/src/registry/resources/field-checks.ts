/**
 * The small checks kube-apiserver's core validation (pkg/apis/core/validation) builds every rule from, over decoded
 * JSON: reading optional fields as Go's zero values, names (DNS labels and subdomains, qualified names), IP
 * addresses and CIDRs as k8s.io/utils/net parses them, port numbers and names, and non-negative integers, each
 * worded as k8s.io/apimachinery/pkg/util/validation words it.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';

/** A decoded JSON object. */
export type Json = Record<string, unknown>;

/** A list field (Go's nil slice when absent or not a list). */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A list field's items as objects. */
export function objects(value: unknown): Json[] {
  return list(value).map((v) => record(v) ?? {});
}

/** A string field ('' when absent, as Go's zero value). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A map or struct field ({} when absent). */
export function obj(value: unknown): Json {
  return record(value) ?? {};
}

/** True when an optional (pointer) field is set. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A number field (0 when absent, as Go's zero value). */
export function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** validation.InclusiveRangeError. */
export function inclusiveRange(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Invalid errors at `path` for each message of a name check. */
function each(path: string, value: string, messages: readonly string[]): FieldError[] {
  return messages.map((msg) => fieldError.invalid(path, value, msg));
}

/** ValidateDNS1123Label. */
export function dns1123Label(value: string, path: string): FieldError[] {
  return each(path, value, isDns1123Label(value));
}

/** ValidateDNS1123Subdomain (also NameIsDNSSubdomain for names of other objects). */
export function dns1123Subdomain(value: string, path: string): FieldError[] {
  return each(path, value, isDns1123Subdomain(value));
}

/** A DNS-1035 label check. */
export function dns1035Label(value: string, path: string): FieldError[] {
  return each(path, value, isDns1035Label(value));
}

/** ValidateQualifiedName, and ValidateLabelName (the same check). */
export function qualifiedName(value: string, path: string): FieldError[] {
  return each(path, value, isQualifiedName(value));
}

/** ValidateNonnegativeField. */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return num(value) < 0 ? [fieldError.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** The 4 bytes of an IPv4 address as netutils.ParseIPSloppy reads it (leading zeros allowed), or undefined. */
function sloppyIPv4(value: string): number[] | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

/** The address family of an IP as netutils.ParseIPSloppy accepts it, or undefined. */
export function ipFamilyOf(value: string): 4 | 6 | undefined {
  if (sloppyIPv4(value) !== undefined || isIPv4(value)) return 4;
  if (isIPv6(value)) {
    // An IPv4-mapped address (::ffff:1.2.3.4) is an IPv4 address to Go's net package.
    return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value) ? 4 : 6;
  }
  return undefined;
}

/** validation.IsValidIP as 1.27 words it, at `path`. */
export function ipErrors(value: unknown, path: string): FieldError[] {
  const ip = text(value);
  return ipFamilyOf(ip) === undefined ? [fieldError.invalid(path, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')] : [];
}

/** The family of a CIDR as netutils.ParseCIDRSloppy accepts it, or undefined. */
export function cidrFamilyOf(value: string): 4 | 6 | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const bits = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return undefined;
  const family = ipFamilyOf(value.slice(0, slash));
  if (family === undefined) return undefined;
  return Number(bits) <= (family === 4 ? 32 : 128) ? family : undefined;
}

/** validation.IsValidCIDR as 1.27 words it, at `path`. */
export function cidrErrors(value: unknown, path: string): FieldError[] {
  const cidr = text(value);
  return cidrFamilyOf(cidr) === undefined ? [fieldError.invalid(path, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')] : [];
}

/** netutils.IsDualStackIPStrings / IsDualStackCIDRStrings: both families present, given each entry's family. */
export function isDualStack(families: readonly (4 | 6 | undefined)[]): boolean {
  return families.includes(4) && families.includes(6);
}

/** validation.IsValidPortNum's message for a number outside 1-65535, or none. */
export function portNumErrors(value: unknown, path: string): FieldError[] {
  const n = num(value);
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? [] : [fieldError.invalid(path, value ?? 0, inclusiveRange(1, 65535))];
}

/** validation.IsValidPortName: an IANA service name. */
export function portNameMessages(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName: an int-or-string port, a number checked as a port number, a string as a port name. */
export function portNumOrName(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return portNameMessages(value).map((msg) => fieldError.invalid(path, value, msg));
  return portNumErrors(value, path);
}

/** The protocols of ports (supportedPortProtocols), in kube's sorted order. */
export const portProtocols = ['SCTP', 'TCP', 'UDP'] as const;

/** A port's protocol: Required when empty, else one of TCP, UDP and SCTP. */
export function protocolErrors(value: unknown, path: string): FieldError[] {
  const protocol = text(value);
  if (protocol === '') return [fieldError.required(path)];
  return (portProtocols as readonly string[]).includes(protocol) ? [] : [fieldError.notSupported(path, protocol, portProtocols)];
}

/** An enumerated field: Required when empty (if `required`), NotSupported when unknown. */
export function oneOf(value: unknown, path: string, allowed: readonly string[], required: boolean): FieldError[] {
  const v = text(value);
  if (v === '') return required ? [fieldError.required(path)] : [];
  return allowed.includes(v) ? [] : [fieldError.notSupported(path, v, allowed)];
}

/** ValidateNonSpecialIP (Endpoints, external IPs): no unspecified, loopback, link-local or link-local multicast address. */
export function nonSpecialIpErrors(value: unknown, path: string): FieldError[] {
  const ip = text(value);
  const family = ipFamilyOf(ip);
  if (family === undefined) return [fieldError.invalid(path, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = family === 4 ? (sloppyIPv4(ip.replace(/^::ffff:/i, '')) ?? []) : [];
  const v6 = family === 6 ? ip.toLowerCase() : '';
  const unspecified = family === 4 ? v4.every((b) => b === 0) : /^(0*:)*:?0*$/.test(v6) || v6 === '::';
  if (unspecified) errs.push(fieldError.invalid(path, ip, `may not be unspecified (${ip})`));
  if ((family === 4 && v4[0] === 127) || (family === 6 && /^(0*:)*:?0*1$/.test(v6))) {
    errs.push(fieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  }
  if ((family === 4 && v4[0] === 169 && v4[1] === 254) || (family === 6 && /^fe[89ab]/.test(v6))) {
    errs.push(fieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if ((family === 4 && v4[0] === 224 && v4[1] === 0 && v4[2] === 0) || (family === 6 && /^ff02:/.test(v6))) {
    errs.push(fieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}
