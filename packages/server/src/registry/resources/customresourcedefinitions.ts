/**
 * CustomResourceDefinitions (apiextensions-apiserver's strategy and REST storage): defaulted and validated as
 * apiextensions-apiserver does (apiextensions/crd-validation.ts); a create starts with an empty status whose
 * `storedVersions` holds the storage version, and every write adds a new storage version there; the status
 * subresource validates accepted names and stored versions. The first delete keeps the CRD, adds the
 * `customresourcecleanup` finalizer and the Terminating condition; the finalizer controller then deletes every
 * custom object and lets it go.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { storageVersionOf, withCondition, type CrdStatus, type CustomResourceDefinition } from '../../apiextensions/crd.js';
import { defaultCrd, validateCrd, validateCrdStatus, validateCrdUpdate } from '../../apiextensions/crd-validation.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import { nowTimestamp } from '../operations/prepare.js';
import type { Strategy } from '../strategy.js';

/** The finalizer that holds a deleted CRD until its custom objects are gone (`customresourcecleanup.apiextensions.svc.io`). */
export function crdCleanupFinalizer(names: Names): string {
  return `customresourcecleanup.${names.group('apiextensions')}`;
}

/** The storage version joins `status.storedVersions` (kube's PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = storageVersionOf(crd);
  if (storage === undefined) return;
  const status = (crd.status ??= {}) as { storedVersions?: string[] };
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  if (!stored.includes(storage)) status.storedVersions = [...stored, storage];
}

/** The strategy of customresourcedefinitions. */
export function customResourceDefinitionStrategy(names: Names): Strategy {
  const finalizer = crdCleanupFinalizer(names);
  return defineStrategy({
    hasStatus: true,
    tracksGeneration: true,
    defaults: (object) => defaultCrd(object as CustomResourceDefinition),
    prepareForCreate(object) {
      const crd = object as CustomResourceDefinition;
      crd.status = {};
      recordStorageVersion(crd);
    },
    prepareForUpdate: (object) => recordStorageVersion(object as CustomResourceDefinition),
    validate: (object) => validateCrd(object as CustomResourceDefinition),
    validateUpdate: (object, old) => validateCrdUpdate(object as CustomResourceDefinition, old as CustomResourceDefinition),
    status: {
      prepareForUpdate(object, old) {
        genericStatusStrategy.prepareForUpdate(object, old);
        recordStorageVersion(object as CustomResourceDefinition);
      },
      validateUpdate: (object) => validateCrdStatus(object as CustomResourceDefinition),
    },
    holdOnDelete(object: KubeObject) {
      const meta = (object.metadata ??= {});
      if (meta.deletionTimestamp !== undefined) return false;
      if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
      const crd = object as CustomResourceDefinition;
      const status: CrdStatus = crd.status ?? {};
      crd.status = {
        ...status,
        conditions: withCondition(status.conditions, {
          type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        }, nowTimestamp()),
      };
      return true;
    },
  });
}
