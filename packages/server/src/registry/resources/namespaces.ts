/**
 * Namespaces (pkg/registry/core/namespace; ValidateNamespace, its status and finalize updates, 1.27): cluster-scoped,
 * named by DNS-1123 label; the namespace finalizer in `spec.finalizers` on create, `status.phase` Active, the
 * `metadata.name` label kept equal to the name; spec finalizers are qualified or standard names; a status write
 * keeps the phase Active until deletion starts and Terminating after; a delete turns the namespace Terminating and
 * it stays until its spec finalizers are removed through `/finalize`.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isQualifiedName } from '../../meta/name-rules.js';
import { defineStrategy, fieldsAt, genericStatusStrategy, keepField } from '../default-strategy.js';
import { coreMetaErrors } from './core-meta.js';
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
  // SetDefaults_Namespace on decode, and again in the strategy (kube's Canonicalize: a generated name is known then).
  const setNameLabel = (object: KubeObject): void => {
    const meta = (object.metadata ??= {});
    if (meta.name) meta.labels = { ...(meta.labels ?? {}), [nameLabel]: meta.name };
  };
  // validateFinalizerName: a qualified name, and a standard one when it has no domain.
  const finalizerErrors = (object: KubeObject, indexed: boolean): FieldError[] => {
    const errs: FieldError[] = [];
    specFinalizers(object).forEach((f, i) => {
      const at = indexed ? `spec.finalizers[${i}]` : 'spec.finalizers';
      for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(at, f, msg));
      if (!f.includes('/') && !standardFinalizers.has(f)) errs.push(fieldError.invalid(at, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    });
    return errs;
  };
  // ValidateNamespaceStatusUpdate: Active until deletion starts, Terminating after.
  const statusErrors = (object: KubeObject): FieldError[] => {
    const phase = (object as NamespaceShape).status?.phase ?? '';
    if (object.metadata?.deletionTimestamp === undefined) {
      return phase === 'Active' ? [] : [fieldError.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
    }
    return phase === 'Terminating' ? [] : [fieldError.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  };
  return defineStrategy({
    nameRule: 'dns1123Label',
    hasStatus: true,
    returnDeletedObject: true,
    defaults: setNameLabel,
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
    validate: (object) => [...coreMetaErrors(object, names), ...finalizerErrors(object, false)],
    validateUpdate: (object) => coreMetaErrors(object, names),
    status: {
      prepareForUpdate: genericStatusStrategy.prepareForUpdate,
      validateUpdate: (object) => [...coreMetaErrors(object, names), ...statusErrors(object)],
    },
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
      validateUpdate: (object) => [...coreMetaErrors(object, names), ...finalizerErrors(object, true)],
    },
  });
}
