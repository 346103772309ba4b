/**
 * The string formats kube-apiserver checks in custom resources (k8s.io/kube-openapi's strfmt registry as the CRD
 * validator uses it). Formats it does not know (`password`, `int32`, ...) accept any value.
 */
import { isIP } from 'node:net';

const uuidPattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const hostnamePattern = /^(?=.{1,255}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/;
const emailPattern = /^[^\s@]+@[^\s@]+$/;
const macPattern = /^(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;
const durationPattern = /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h|d|w))+$/;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function validDate(s: string): boolean {
  if (!datePattern.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function validCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const version = isIP(ip);
  if (version === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

const checks: Readonly<Record<string, (s: string) => boolean>> = {
  uuid: (s) => uuidPattern.test(s),
  uuid3: (s) => uuidPattern.test(s),
  uuid4: (s) => uuidPattern.test(s),
  uuid5: (s) => uuidPattern.test(s),
  date: validDate,
  'date-time': (s) => dateTimePattern.test(s) && validDate(s.slice(0, 10)),
  hostname: (s) => hostnamePattern.test(s),
  email: (s) => emailPattern.test(s),
  ipv4: (s) => isIP(s) === 4,
  ipv6: (s) => isIP(s) === 6,
  cidr: validCidr,
  mac: (s) => macPattern.test(s),
  duration: (s) => durationPattern.test(s),
  byte: (s) => base64Pattern.test(s.replace(/[\r\n]/g, '')),
};

/** False when `value` is not of the named format; formats not checked are always true. */
export function matchesFormat(format: string, value: string): boolean {
  const check = checks[format];
  return check === undefined ? true : check(value);
}
