/**
 * Validation of object metadata on create and update, mirroring k8s.io/apimachinery/pkg/api/validation
 * (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate) with kube-apiserver's field paths and messages.
 */
import { fieldError, type FieldError, type ObjectMeta } from '@svc-apiserver/api';
import { checkName, isDns1123Label, isLabelValue, isQualifiedName, type NameRule } from './name-rules.js';

/** The total size of all annotation keys and values may not exceed 256 KiB (TotalAnnotationSizeLimitB). */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/** ValidateLabels: keys are qualified names, values label values; both reported at `metadata.labels`. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldError.invalid(path, k, msg));
    if (typeof v !== 'string') continue;
    for (const msg of isLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names (case-insensitive), total size at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    size += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  }
  if (size > totalAnnotationSizeLimitBytes) errs.push(fieldError.tooLong(path, totalAnnotationSizeLimitBytes));
  return errs;
}

/** ValidateFinalizers: every finalizer a qualified name; `orphan` and `foregroundDeletion` not both. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) {
    for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(path, f, msg));
  }
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldError.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** What {@link validateObjectMeta} needs to know about the resource. */
export interface MetaRules {
  readonly namespaced: boolean;
  readonly nameRule: NameRule;
}

/** ValidateObjectMetaAccessor: name (or generateName), namespace, generation, labels, annotations, finalizers. */
export function validateObjectMeta(meta: ObjectMeta, rules: MetaRules): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of checkName(rules.nameRule, meta.generateName, true)) {
      errs.push(fieldError.invalid('metadata.generateName', meta.generateName, msg));
    }
  }
  if (!meta.name) {
    errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  } else {
    for (const msg of checkName(rules.nameRule, meta.name, false)) {
      errs.push(fieldError.invalid('metadata.name', meta.name, msg));
    }
  }
  if (rules.namespaced) {
    if (!meta.namespace) errs.push(fieldError.required('metadata.namespace'));
    else for (const msg of isDns1123Label(meta.namespace)) errs.push(fieldError.invalid('metadata.namespace', meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(fieldError.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  if (meta.generation !== undefined && meta.generation < 0) {
    errs.push(fieldError.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  return errs;
}

function immutable(errs: FieldError[], path: string, now: unknown, before: unknown): void {
  if (JSON.stringify(now) !== JSON.stringify(before)) errs.push(fieldError.invalid(path, now ?? null, 'field is immutable'));
}

/** ValidateObjectMetaAccessorUpdate: identity fields immutable, no new finalizers while deleting, labels etc. valid. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== undefined) {
    const added = (meta.finalizers ?? []).filter((f) => !(old.finalizers ?? []).includes(f));
    if (added.length > 0) {
      const shown = `[]string{${[...new Set(added)].sort().map((f) => JSON.stringify(f)).join(', ')}}`;
      errs.push(fieldError.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${shown}`));
    }
  }
  if (!meta.resourceVersion) {
    errs.push(fieldError.invalid('metadata.resourceVersion', meta.resourceVersion ?? '', 'must be specified for an update'));
  }
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    errs.push(fieldError.invalid('metadata.generation', meta.generation ?? 0, 'must not be decremented'));
  }
  immutable(errs, 'metadata.name', meta.name, old.name);
  immutable(errs, 'metadata.namespace', meta.namespace, old.namespace);
  immutable(errs, 'metadata.uid', meta.uid, old.uid);
  immutable(errs, 'metadata.creationTimestamp', meta.creationTimestamp, old.creationTimestamp);
  immutable(errs, 'metadata.deletionTimestamp', meta.deletionTimestamp, old.deletionTimestamp);
  immutable(errs, 'metadata.deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds);
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  return errs;
}
