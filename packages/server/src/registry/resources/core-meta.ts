/**
 * What core/v1's ValidateObjectMeta adds to the generic metadata checks for every kind it validates
 * (validateKubeFinalizerName): a finalizer without a domain must be one of the standard ones (the namespace
 * finalizer of the flavour, `orphan`, `foregroundDeletion`).
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';

/** The finalizer errors of core/v1's ValidateObjectMeta and ValidateObjectMetaUpdate. */
export function coreMetaErrors(object: KubeObject, names?: Names): FieldError[] {
  const standard = new Set(['orphan', 'foregroundDeletion', names?.name('namespaceFinalizer') ?? 'kubernetes']);
  const errs: FieldError[] = [];
  (object.metadata?.finalizers ?? []).forEach((f, i) => {
    if (!f.includes('/') && !standard.has(f)) {
      errs.push(fieldError.invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}
