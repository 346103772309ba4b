/**
 * The server-side apply mechanism (`application/apply-patch+yaml`; kube's applyPatcher): the configuration merged
 * into the stored object by the field manager (409 on conflicts with other managers unless forced), or made into
 * a new object when none is stored, then defaulted: kube's field manager defaults the object its Apply merged, so
 * the applier owns what it sent and never a default it did not send (../defaulting.ts). The field validation of the configuration's duplicate fields is decided once,
 * from the body alone, and reported after a successful merge, as kube reports it.
 */
import { fail, failure, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import { conflictStatus } from '../../../apply/conflicts.js';
import type { FieldManagerScope, ManagedObject } from '../../../apply/field-manager.js';
import { applyMigratingSteps } from '../../../apply/last-applied.js';
import { runStepsYielding } from '../../../limits/turn-budget.js';
import type { PatchMechanism } from './patch-mechanism.js';

/** An apply request, its configuration already checked (apiVersion, kind, no managedFields, every field declared). */
export interface ApplyRequest {
  readonly configuration: KubeObject;
  readonly fieldManager: string;
  readonly force: boolean;
  readonly scope: FieldManagerScope;
  /** The flavour's last-applied-configuration annotation (client-side apply state that `kubectl` applies migrate). */
  readonly lastAppliedAnnotation: string;
  /** The field validation of the configuration's duplicate fields: the warnings to send, or the failure. */
  readonly fieldValidation: Result<readonly string[]>;
  /** The kind's defaults, applied in place to the merged object after ownership was decided. */
  readonly defaults: (object: KubeObject) => void;
}

/** The apply mechanism of `request`. */
export function applyMechanism(request: ApplyRequest): PatchMechanism {
  return {
    createsMissing: true,
    async next(current) {
      // In steps: a configuration of many keys must not hold the event loop for the whole merge.
      const applied = await runStepsYielding(applyMigratingSteps(current as ManagedObject | undefined, request.configuration as ManagedObject,
        request.fieldManager, request.force, request.scope, request.lastAppliedAnnotation));
      if (!applied.ok) {
        const why = applied.error;
        return fail(why.reason === 'conflict' ? conflictStatus(why.conflicts) : failure('Unknown', why.message, undefined, 500));
      }
      if (!request.fieldValidation.ok) return request.fieldValidation;
      const object = applied.value as KubeObject;
      request.defaults(object);
      return ok({ object, warnings: request.fieldValidation.value });
    },
  };
}
