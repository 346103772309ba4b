/**
 * The strategy steps of a write (k8s.io/apiserver/pkg/registry/rest BeforeCreate and BeforeUpdate): clear what a
 * client may not set, fill system fields, run the strategy's prepare, then validate metadata and the type.
 */
import { randomUUID } from 'node:crypto';
import { fail, invalid, ok, ownValue, type FieldError, type KubeObject, type Result } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import { generateName } from '../../meta/generate-name.js';
import { normalizeObjectMeta } from '../../meta/normalize-object-meta.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../meta/object-meta-validation.js';
import type { ResourceDef } from '../resource-def.js';
import type { SubresourceStrategy } from '../strategy.js';
import { runSteps, type Steps } from '../../limits/turn-budget.js';
import { jsonEquivalentSteps } from '../../limits/json-equivalent-steps.js';
import { applyKindDefaultsSteps } from './defaulting.js';

let stampedSecond = -1;
let stamped = '';

/** A timestamp as kube-apiserver writes them: RFC 3339, whole seconds, UTC. */
export function nowTimestamp(): string {
  // Formatted once per second: every write stamps a time, and they come many to a second.
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampedSecond) {
    stampedSecond = second;
    stamped = new Date(second * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  }
  return stamped;
}

/** The top-level fields `metadata.generation` never tracks. */
const untrackedFields = new Set(['metadata', 'kind', 'apiVersion']);

/**
 * Whether what `metadata.generation` tracks changed: every top-level field but metadata, kind, apiVersion and
 * (unless `withStatus`) status, compared as JSON documents whatever their key order, as kube's semantic DeepEqual
 * compares them. One walk in steps that stops at the first difference and builds no JSON text (serializing a large
 * custom object to compare it took most of a turn).
 */
function* trackedFieldsChangedSteps(object: KubeObject, old: KubeObject, withStatus: boolean): Steps<boolean> {
  const tracked = (k: string): boolean => !untrackedFields.has(k) && (withStatus || k !== 'status');
  for (const k of Object.keys(object)) if (tracked(k) && !(yield* jsonEquivalentSteps(object[k], ownValue(old, k)))) return true;
  for (const k of Object.keys(old)) if (tracked(k) && !Object.hasOwn(object, k) && old[k] !== undefined) return true;
  return false;
}

function invalidOutcome(def: ResourceDef, object: KubeObject, errors: FieldError[]): Result<void> {
  if (errors.length === 0) return ok(undefined);
  return fail(invalid(def.kind, def.qualified, object.metadata?.name ?? '', errors));
}

/**
 * BeforeCreate: defaults again after mutating admission (defaulting.ts), prepare, system fields, generated name,
 * validation. Returns whether the name was generated. `user`
 * is the requester, for strategies that record it.
 */
export function beforeCreate(def: ResourceDef, object: KubeObject, user?: UserInfo): Result<{ generatedName: boolean }> {
  return runSteps(beforeCreateSteps(def, object, user));
}

/**
 * {@link beforeCreate} in steps: a strategy whose defaulting and validation have steps (a custom object's schema)
 * lets the write path give the event loop back between them (limits/turn-budget.ts).
 */
export function* beforeCreateSteps(def: ResourceDef, object: KubeObject, user?: UserInfo): Steps<Result<{ generatedName: boolean }>> {
  const meta = (object.metadata ??= {});
  normalizeObjectMeta(meta);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  // The uid comes first: a strategy may use it (Job's generated selector, as kube's PrepareForCreate does).
  meta.uid = randomUUID();
  yield* applyKindDefaultsSteps(def, object);
  def.strategy.prepareForCreate(object, user);
  meta.creationTimestamp = nowTimestamp();
  if (def.strategy.tracksGeneration) meta.generation = 1;
  else delete meta.generation;
  let generatedName = false;
  if (meta.generateName && !meta.name) {
    meta.name = generateName(meta.generateName);
    generatedName = true;
  }
  const errors = [
    ...validateObjectMeta(meta, { namespaced: def.namespaced, nameRule: def.strategy.nameRuleOf?.(object) ?? def.strategy.nameRule }),
    ...(def.strategy.validateSteps !== undefined ? yield* def.strategy.validateSteps(object) : def.strategy.validate(object)),
  ];
  const checked = invalidOutcome(def, object, errors);
  return checked.ok ? ok({ generatedName }) : checked;
}

/** The update steps of the main resource's strategy. */
function mainUpdateStrategy(def: ResourceDef): SubresourceStrategy {
  const { prepareForUpdate, validateUpdate, validateUpdateSteps } = def.strategy;
  return { prepareForUpdate, validateUpdate, ...(validateUpdateSteps !== undefined ? { validateUpdateSteps } : {}) };
}

/** The strategy of a subresource write, or of the main resource when `subresource` is `''`. */
export function subresourceStrategy(def: ResourceDef, subresource: string): SubresourceStrategy | undefined {
  if (subresource === '') return mainUpdateStrategy(def);
  if (subresource === 'status') return def.strategy.status;
  if (subresource === 'finalize') return def.strategy.finalize;
  // kube's scale subresource writes through the main store: the workload's own update strategy runs.
  if (subresource === 'scale' && def.subresources.some((s) => s.name === 'scale')) {
    return mainUpdateStrategy(def);
  }
  return def.strategy.subresources?.[subresource];
}

/**
 * BeforeUpdate: defaults again after mutating admission (defaulting.ts), keep what this write may not change, carry
 * system fields over, bump generation, validate.
 */
export function beforeUpdate(def: ResourceDef, subresource: string, object: KubeObject, old: KubeObject): Result<void> {
  return runSteps(beforeUpdateSteps(def, subresource, object, old));
}

/** {@link beforeUpdate} in steps (as {@link beforeCreateSteps}). */
export function* beforeUpdateSteps(def: ResourceDef, subresource: string, object: KubeObject, old: KubeObject): Steps<Result<void>> {
  const meta = (object.metadata ??= {});
  normalizeObjectMeta(meta);
  const oldMeta = old.metadata ?? {};
  const strategy = subresourceStrategy(def, subresource);
  if (strategy === undefined) throw new Error(`no strategy for subresource ${subresource} of ${def.resource}`);
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  yield* applyKindDefaultsSteps(def, object);
  strategy.prepareForUpdate(object, old);
  if (!meta.uid && oldMeta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  if (def.strategy.tracksGeneration && (yield* trackedFieldsChangedSteps(object, old, def.strategy.generationCountsStatus === true))) {
    meta.generation = (oldMeta.generation ?? 0) + 1;
  }
  const errors = [
    ...validateObjectMetaUpdate(meta, oldMeta),
    ...(strategy.validateUpdateSteps !== undefined ? yield* strategy.validateUpdateSteps(object, old) : strategy.validateUpdate(object, old)),
  ];
  return invalidOutcome(def, object, errors);
}

/**
 * True when a write would store exactly what is stored (kube then skips the write: no new resourceVersion); in
 * steps, since an object of many keys is compared key by key.
 */
export function unchangedSteps(object: KubeObject, current: KubeObject): Steps<boolean> {
  return jsonEquivalentSteps(object, current);
}
