/**
 * Resource names and quantities as kube-apiserver 1.27 checks them (pkg/apis/core/helper and the resource checks of
 * pkg/apis/core/validation): which names are standard, native, extended, integer-valued or overcommitable, a
 * quantity's sign and integrality (ValidateResourceQuantityValue), huge page sizes, and a container's requirements
 * (ValidateResourceRequirements). Quantities are compared exactly (meta/quantity.ts).
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { compareQuantities, formatQuantity, milliValue, parseQuantity, type Quantity } from '../../meta/quantity.js';
import { isQualifiedName } from '../../meta/name-rules.js';
import { obj, type Json } from './field-checks.js';

/** The message kube's quantity unmarshaling gives for text that is not a quantity. */
export const quantityFormatMessage = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);

const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

/** IsHugePageResourceName. */
export function isHugePageResource(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** IsQuotaHugePageResourceName. */
function isQuotaHugePageResource(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

/** IsNativeResource: unprefixed, or in the kubernetes.io domain (in either flavour: resource names are not renamed). */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** IsExtendedResourceName: a prefixed, non-native name whose quota form (`requests.<name>`) is a qualified name. */
export function isExtendedResource(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** IsIntegerResourceName: the object counts and extended resources. */
export function isIntegerResource(name: string): boolean {
  return integerResources.has(name) || isExtendedResource(name);
}

/** IsOvercommitAllowed: native resources but huge pages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResource(name);
}

/** IsStandardQuotaResourceName. */
export function isStandardQuotaResource(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResource(name);
}

/** validateResourceName: a qualified name, and a standard one when unprefixed. */
export function resourceNameErrors(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !standardResources.has(name) && !isQuotaHugePageResource(name)) {
    return [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** validateContainerResourceName: cpu, memory, ephemeral-storage, huge pages, or an extended resource. */
export function containerResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/')) {
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !isHugePageResource(name)) {
      errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuotaResourceName. */
export function quotaResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(fieldError.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

/** A quantity, or the Invalid error kube's decoding answers for text that is not one. */
export function quantityAt(value: unknown, path: string): { q?: Quantity; errs: FieldError[] } {
  const q = parseQuantity(value);
  return q === undefined ? { errs: [fieldError.invalid(path, value, quantityFormatMessage)] } : { q, errs: [] };
}

/** ValidateResourceQuantityValue: not negative, and whole for integer resources. */
export function resourceQuantityErrors(name: string, value: unknown, path: string): FieldError[] {
  const { q, errs } = quantityAt(value, path);
  if (q === undefined) return errs;
  if (q.nano < 0n) errs.push(fieldError.invalid(path, formatQuantity(q), 'must be greater than or equal to 0'));
  if (isIntegerResource(name) && milliValue(q) % 1000n !== 0n) errs.push(fieldError.invalid(path, formatQuantity(q), 'must be an integer'));
  return errs;
}

/** ValidatePositiveQuantityValue. */
export function positiveQuantityErrors(value: unknown, path: string): FieldError[] {
  const { q, errs } = quantityAt(value, path);
  if (q === undefined) return errs;
  return q.nano <= 0n ? [fieldError.invalid(path, formatQuantity(q), 'must be greater than zero')] : [];
}

/** validateBasicResource: a quantity whose whole value is not negative. */
export function basicResourceErrors(value: unknown, path: string): FieldError[] {
  const { q, errs } = quantityAt(value, path);
  if (q === undefined) return errs;
  const whole = q.nano / 1_000_000_000n + (q.nano % 1_000_000_000n > 0n ? 1n : 0n);
  return whole < 0n ? [fieldError.invalid(path, Number(whole), 'must be a valid resource quantity')] : [];
}

/** IsHugePageResourceValueDivisible: the value is a whole multiple of the page size the name carries. */
function hugePageDivisible(name: string, q: Quantity): boolean {
  const size = parseQuantity(name.slice('hugepages-'.length));
  if (size === undefined || size.nano <= 0n) return false;
  return q.nano % size.nano === 0n;
}

/** What a resource check depends on beyond the requirements (PodValidationOptions). */
export interface ResourceOptions {
  /** The stored object already used huge page values that are not a multiple of the page size. */
  readonly allowIndivisibleHugePages: boolean;
}

/**
 * ValidateResourceRequirements (the 1.27 form, without resource claims, which DynamicResourceAllocation's
 * default-off gate drops): names, quantities, requests not above limits (equal for resources that may not be
 * overcommitted, which need a limit), huge page values whole pages and only beside cpu or memory.
 */
export function resourceRequirementsErrors(resources: Json, path: string, options: ResourceOptions): FieldError[] {
  const errs: FieldError[] = [];
  const limits = obj(resources['limits']);
  const requests = obj(resources['requests']);
  let cpuOrMemory = false;
  let hugePages = false;
  const hugePageValue = (name: string, value: unknown, at: string): void => {
    if (!isHugePageResource(name)) return;
    hugePages = true;
    const q = parseQuantity(value);
    if (q !== undefined && !options.allowIndivisibleHugePages && !hugePageDivisible(name, q)) {
      errs.push(fieldError.invalid(at, formatQuantity(q), `${formatQuantity(q)} is not positive integer multiple of ${name}`));
    }
  };
  for (const [name, value] of Object.entries(limits)) {
    const at = `${path}.limits[${name}]`;
    errs.push(...containerResourceNameErrors(name, at), ...resourceQuantityErrors(name, value, at));
    hugePageValue(name, value, at);
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(requests)) {
    const at = `${path}.requests[${name}]`;
    errs.push(...containerResourceNameErrors(name, at), ...resourceQuantityErrors(name, value, at));
    const request = parseQuantity(value);
    const limit = limits[name] === undefined ? undefined : parseQuantity(limits[name]);
    if (limits[name] !== undefined) {
      if (request !== undefined && limit !== undefined) {
        const cmp = compareQuantities(request, limit);
        if (cmp !== 0 && !isOvercommitAllowed(name)) {
          errs.push(fieldError.invalid(`${path}.requests`, formatQuantity(request), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
        } else if (cmp > 0) {
          errs.push(fieldError.invalid(`${path}.requests`, formatQuantity(request), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldError.required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    }
    hugePageValue(name, value, at);
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

/** True when a resource list holds a huge page value that is not a whole number of pages (usesIndivisibleHugePagesValues). */
export function hasIndivisibleHugePages(list: Json): boolean {
  return Object.entries(list).some(([name, value]) => {
    if (!isHugePageResource(name)) return false;
    const q = parseQuantity(value);
    return q !== undefined && !hugePageDivisible(name, q);
  });
}

/**
 * SetDefaults_ResourceList and the Quantity round trip: every value rounded up to milli-units and written in the
 * canonical form kube-apiserver serializes (`0.5` → `500m`, `1.5Gi` → `1536Mi`). Values that do not parse are left
 * for validation to report.
 */
export function canonicalizeResourceList(list: unknown): void {
  const entries = list !== null && typeof list === 'object' && !Array.isArray(list) ? (list as Json) : undefined;
  if (entries === undefined) return;
  for (const [name, value] of Object.entries(entries)) {
    const text = canonicalQuantityText(value);
    if (text !== undefined) entries[name] = text;
  }
}

/** A quantity's canonical text after kube's milli round-up, or undefined when it does not parse. */
export function canonicalQuantityText(value: unknown): string | undefined {
  const q = parseQuantity(value);
  if (q === undefined) return undefined;
  const milli = 1_000_000n;
  const rem = q.nano % milli;
  // Away from zero, as inf.Dec's RoundUp.
  const rounded = rem === 0n ? q.nano : q.nano > 0n ? q.nano + (milli - rem) : q.nano - (milli + rem);
  return formatQuantity({ nano: rounded, format: q.format });
}
