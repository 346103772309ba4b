/**
 * Namespaces (pkg/registry/core/namespace): cluster-scoped, named by DNS-1123 label; the namespace finalizer in
 * `spec.finalizers` on create, `status.phase` Active, the `metadata.name` label kept equal to the name; a delete
 * turns the namespace Terminating and it stays until its spec finalizers are removed through `/finalize`.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isQualifiedName } from '../../meta/name-rules.js';
import { defineStrategy, fieldsAt, keepField } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

interface NamespaceShape {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}

function specFinalizers(object: KubeObject): string[] {
  return (object as NamespaceShape).spec?.finalizers ?? [];
}

/** The namespace strategy of a flavour. */
export function namespaceStrategy(names: Names): Strategy {
  const finalizer = names.name('namespaceFinalizer');
  const nameLabel = names.domain('metadata.name');
  const standardFinalizers = new Set([finalizer, 'orphan', 'foregroundDeletion']);
  const setNameLabel = (object: KubeObject): void => {
    const meta = (object.metadata ??= {});
    if (meta.name) meta.labels = { ...(meta.labels ?? {}), [nameLabel]: meta.name };
  };
  const validateSpecFinalizers = (object: KubeObject): FieldError[] => {
    const errs: FieldError[] = [];
    for (const f of specFinalizers(object)) {
      if (!f.includes('/')) {
        if (!standardFinalizers.has(f)) errs.push(fieldError.invalid('spec.finalizers', f, 'name is neither a standard finalizer name nor is it fully qualified'));
      } else {
        for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid('spec.finalizers', f, msg));
      }
    }
    return errs;
  };
  return defineStrategy({
    nameRule: 'dns1123Label',
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate(object) {
      object.status = { phase: 'Active' };
      const spec = ((object as NamespaceShape).spec ??= {});
      if (!(spec.finalizers ?? []).includes(finalizer)) spec.finalizers = [...(spec.finalizers ?? []), finalizer];
      object.spec = spec;
      setNameLabel(object);
    },
    prepareForUpdate(object, old) {
      const spec = ((object as NamespaceShape).spec ??= {});
      const oldFinalizers = (old as NamespaceShape).spec?.finalizers;
      if (oldFinalizers === undefined) delete spec.finalizers;
      else spec.finalizers = [...oldFinalizers];
      object.spec = spec;
      setNameLabel(object);
    },
    validate: validateSpecFinalizers,
    validateUpdate: validateSpecFinalizers,
    selectableFields: fieldsAt('status.phase'),
    holdOnDelete(object) {
      const ns = object as KubeObject & NamespaceShape;
      if (ns.metadata?.deletionTimestamp === undefined || ns.status?.phase !== 'Terminating') {
        ns.status = { ...(ns.status ?? {}), phase: 'Terminating' };
        return true;
      }
      return specFinalizers(ns).length > 0;
    },
    finalize: {
      prepareForUpdate(object, old) {
        keepField(object, old, 'status');
        setNameLabel(object);
      },
      validateUpdate: validateSpecFinalizers,
    },
  });
}
