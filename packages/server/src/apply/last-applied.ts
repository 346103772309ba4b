/**
 * Migration from client-side to server-side apply (kube-apiserver's lastAppliedManager and lastAppliedUpdater):
 * when the manager `kubectl` applies and meets conflicts, the fields its client-side apply annotation recorded and
 * that still hold the recorded value are taken over as if forced; after a successful apply by `kubectl` to an object
 * carrying the annotation, the annotation is rewritten to the applied configuration, so a later client-side apply
 * sees what the server-side one set.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { conflictMessageFor } from './conflicts.js';
import { compare } from './compare.js';
import { applyConfigurationSteps, type ApplyFailure, type FieldManagerScope, type ManagedObject } from './field-manager.js';
import { fieldSetOf } from './field-set.js';
import { difference, hasPath, type PathSet } from './path-set.js';
import { isObject } from './schema-view.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

/** The only manager whose applies migrate client-side apply state (kube opts other managers out). */
export const migratingManager = 'kubectl';

function annotationsOf(object: ManagedObject | undefined): Record<string, unknown> | undefined {
  const meta = object?.metadata;
  return isObject(meta) && isObject(meta['annotations']) ? meta['annotations'] : undefined;
}

/** Go's encoding of a map: keys sorted at every level. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

/** buildLastApplied: the applied configuration without the annotation itself, as kube encodes it (newline-ended). */
export function lastAppliedValue(config: ManagedObject, annotation: string): string {
  const copy = structuredClone(config) as Record<string, unknown>;
  const meta = isObject(copy['metadata']) ? copy['metadata'] : undefined;
  const annotations = meta !== undefined && isObject(meta['annotations']) ? meta['annotations'] : undefined;
  if (annotations !== undefined) delete annotations[annotation];
  return `${sortedJson(copy)}\n`;
}

/** The fields the annotation recorded whose live value is still the recorded one (undefined without an annotation). */
function allowedConflicts(live: ManagedObject, annotation: string, scope: FieldManagerScope): PathSet | undefined {
  const text = annotationsOf(live)?.[annotation];
  if (typeof text !== 'string' || text === '') return undefined;
  let recorded: unknown;
  try {
    recorded = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(recorded)) return undefined;
  const changed = compare(recorded, live, scope.schema, scope.typed);
  return difference(difference(fieldSetOf(recorded, scope.schema), changed.modified), changed.removed);
}

/**
 * FieldManager.Apply with client-side apply migration for `kubectl`: `annotation` is the flavour's
 * last-applied-configuration annotation key.
 */
export function applyMigratingClientSideApply(
  live: ManagedObject | undefined, config: ManagedObject, manager: string, force: boolean, scope: FieldManagerScope, annotation: string,
): Result<ManagedObject, ApplyFailure> {
  return runSteps(applyMigratingSteps(live, config, manager, force, scope, annotation));
}

/** {@link applyMigratingClientSideApply} in steps (see limits/turn-budget.ts). */
export function* applyMigratingSteps(
  live: ManagedObject | undefined, config: ManagedObject, manager: string, force: boolean, scope: FieldManagerScope, annotation: string,
): Steps<Result<ManagedObject, ApplyFailure>> {
  let out = yield* applyConfigurationSteps(live, config, manager, force, scope);
  if (manager !== migratingManager) return out;
  if (!out.ok && out.error.reason === 'conflict' && live !== undefined) {
    const allowed = allowedConflicts(live, annotation, scope);
    if (allowed !== undefined) {
      const remaining = out.error.conflicts.filter((c) => !hasPath(allowed, c.path));
      out = remaining.length === 0
        ? yield* applyConfigurationSteps(live, config, manager, true, scope)
        : fail({ reason: 'conflict', conflicts: remaining, message: conflictMessageFor(remaining) });
    }
  }
  if (!out.ok) return out;
  const annotations = annotationsOf(out.value);
  if (annotations === undefined || annotations[annotation] === undefined) return out;
  const meta = out.value.metadata as Record<string, unknown>;
  return ok({ ...out.value, metadata: { ...meta, annotations: { ...annotations, [annotation]: lastAppliedValue(config, annotation) } } });
}
