/**
 * The path and projection checks volumes share (pkg/apis/core/validation): relative paths without `..`
 * (validateLocalDescendingPath, ValidatePathNoBacksteps, ValidateLocalNonReservedPath), file modes, key-to-path
 * items, downward API files with their field and resource selectors, and the divisors a resource selector takes.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { formatQuantity, parseQuantity } from '../../meta/quantity.js';
import { obj, isSet, qualifiedName, text, type Json } from './field-checks.js';

/** fileModeErrorMsg. */
const fileModeMessage = 'must be a number between 0 and 0777 (octal), both inclusive';

/** A file mode (defaultMode, mode) at `path`: 0 to 0777. */
export function fileModeErrors(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [fieldError.invalid(path, mode, fileModeMessage)] : [];
}

/** validatePathNoBacksteps: no `..` element. */
export function noBacksteps(value: string, path: string): FieldError[] {
  return value.replace(/\\/g, '/').split('/').includes('..') ? [fieldError.invalid(path, value, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..` elements. */
export function localDescendingPath(value: string, path: string): FieldError[] {
  const errs = value.startsWith('/') ? [fieldError.invalid(path, value, 'must be a relative path')] : [];
  return [...errs, ...noBacksteps(value, path)];
}

/** ValidateLocalNonReservedPath: a local descending path that does not start with `..`. */
export function localNonReservedPath(value: string, path: string): FieldError[] {
  const errs = localDescendingPath(value, path);
  if (value.startsWith('..') && !value.startsWith('../')) errs.push(fieldError.invalid(path, value, "must not start with '..'"));
  return errs;
}

/** validateKeyToPath. */
export function keyToPathErrors(item: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (text(item['key']) === '') errs.push(fieldError.required(`${path}.key`));
  if (text(item['path']) === '') errs.push(fieldError.required(`${path}.path`));
  errs.push(...localNonReservedPath(text(item['path']), `${path}.path`), ...fileModeErrors(item['mode'], `${path}.mode`));
  return errs;
}

/** The field paths the downward API exposes to environment variables (validEnvDownwardAPIFieldPathExpressions, 1.27). */
export const envFieldPaths = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.podIP', 'status.podIPs',
].sort();

/** The field paths the downward API exposes to volume files. */
export const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** The labels ConvertDownwardAPIFieldLabel accepts for v1 pods (1.27), `spec.host` being the old name of `spec.nodeName`. */
const convertibleLabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.podIP',
  'status.podIPs', 'spec.host',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['k']` → [`metadata.labels`, `k`]. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const inner = fieldPath.slice(0, -2);
  const at = inner.indexOf("['");
  if (at <= 0) return undefined;
  return [inner.slice(0, at), inner.slice(at + 2)];
}

/** validateObjectFieldSelector (a fieldRef) at `path` against the allowed field paths. */
export function objectFieldSelectorErrors(ref: Json, allowed: readonly string[], path: string): FieldError[] {
  const apiVersion = text(ref['apiVersion']);
  const fieldPath = text(ref['fieldPath']);
  if (apiVersion === '') return [fieldError.required(`${path}.apiVersion`)];
  if (fieldPath === '') return [fieldError.required(`${path}.fieldPath`)];
  const split = splitSubscript(fieldPath);
  let conversion: string | undefined;
  if (apiVersion !== 'v1') conversion = `unsupported pod version: ${apiVersion}`;
  else if (split !== undefined && split[0] !== 'metadata.annotations' && split[0] !== 'metadata.labels') conversion = `field label does not support subscript: ${fieldPath}`;
  else if (split === undefined && !convertibleLabels.has(fieldPath)) conversion = `field label not supported: ${fieldPath}`;
  if (conversion !== undefined) return [fieldError.invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${conversion}`)];
  if (split !== undefined) {
    return qualifiedName(split[0] === 'metadata.annotations' ? split[1].toLowerCase() : split[1], path);
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return allowed.includes(internal) ? [] : [fieldError.notSupported(`${path}.fieldPath`, internal, allowed)];
}

/** The container resources a resourceFieldRef may name exactly (validContainerResourceFieldPathExpressions). */
const resourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

const byteDivisors = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const byteDivisorList = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

/** validateContainerResourceDivisor. */
function divisorErrors(resource: string, divisor: unknown, path: string): FieldError[] {
  const q = parseQuantity(divisor);
  if (q === undefined || q.nano === 0n) return [];
  const shown = formatQuantity(q);
  const at = `${path}.divisor`;
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && shown !== '1m' && shown !== '1') {
    return [fieldError.invalid(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource")];
  }
  const bytes = (what: string): FieldError[] => (byteDivisors.has(shown) ? [] : [fieldError.invalid(at, resource, `only divisor's values ${byteDivisorList} are supported with the ${what} resource`)]);
  if (resource === 'limits.memory' || resource === 'requests.memory') return bytes('memory');
  if (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') return bytes('local ephemeral storage');
  if (resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) return bytes('hugepages');
  return [];
}

/** validateContainerResourceFieldSelector (a resourceFieldRef); a volume file must name its container. */
export function resourceFieldSelectorErrors(ref: Json, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = text(ref['resource']);
  if (volume && text(ref['containerName']) === '') errs.push(fieldError.required(`${path}.containerName`));
  else if (resource === '') errs.push(fieldError.required(`${path}.resource`));
  else if (!resourceFieldPaths.includes(resource) && !resource.startsWith('limits.hugepages-') && !resource.startsWith('requests.hugepages-')) {
    errs.push(fieldError.notSupported(`${path}.resource`, resource, resourceFieldPaths));
  }
  return [...errs, ...divisorErrors(resource, ref['divisor'], path)];
}

/** validateDownwardAPIVolumeFile at `path` (kube passes the volume's path, not the item's). */
export function downwardApiFileErrors(file: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const filePath = text(file['path']);
  if (filePath === '') errs.push(fieldError.required(`${path}.path`));
  errs.push(...localNonReservedPath(filePath, `${path}.path`));
  if (isSet(file['fieldRef'])) {
    errs.push(...objectFieldSelectorErrors(obj(file['fieldRef']), volumeFieldPaths, `${path}.fieldRef`));
    if (isSet(file['resourceFieldRef'])) errs.push(fieldError.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file['resourceFieldRef'])) {
    errs.push(...resourceFieldSelectorErrors(obj(file['resourceFieldRef']), `${path}.resourceFieldRef`, true));
  } else {
    errs.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  return [...errs, ...fileModeErrors(file['mode'], `${path}.mode`)];
}
