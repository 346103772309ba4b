/**
 * Create (the generic store's Create behind a POST, a create-on-update PUT, an apply that creates, or a
 * controller): mutating admission → strategy prepare + validate → validating admission → storage write.
 */
import { fail, type KubeObject, type Result } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import { admissionAttributes, runAdmission, type OperationContext } from './admission-attributes.js';
import { trackForContext } from './field-management.js';
import { beforeCreateSteps } from './prepare.js';
import { withWriteHooks } from './write-hooks.js';
import { runStepsYielding, yieldAfter } from '../../limits/turn-budget.js';

/** A create that passed every step before its storage write. */
export interface PreparedCreate {
  /** The name was generated: a collision in storage picks another. */
  readonly generatedName: boolean;
}

/** The steps of a create before its storage write: authorization of the write, admission, prepare and validate. */
export async function prepareCreate(registry: Registry, def: ResourceDef, object: KubeObject, ctx: OperationContext): Promise<Result<PreparedCreate>> {
  const namespace = def.namespaced ? object.metadata?.namespace ?? '' : '';
  const attrs = () => admissionAttributes(def, 'CREATE', '', namespace, object.metadata?.name ?? '', ctx, object);
  const forbidden = await def.strategy.authorizeWrite?.(object, undefined, ctx.user);
  if (forbidden !== undefined) return fail(forbidden);
  const refused = await runAdmission(registry, 'admit', attrs(), ctx);
  if (refused !== undefined) return fail(refused);
  // A step over a large object gives the event loop back after it, and validation in steps within it
  // (limits/turn-budget.ts).
  const validating = performance.now();
  const prepared = await runStepsYielding(beforeCreateSteps(def, object, ctx.user));
  if (!prepared.ok) return prepared;
  await yieldAfter(validating);
  const invalid = await runAdmission(registry, 'validate', attrs(), ctx);
  if (invalid !== undefined) return fail(invalid);
  return prepared;
}

/** The storage write of a prepared create, between the resource's write hooks. */
export function writeCreate(registry: Registry, def: ResourceDef, object: KubeObject, prepared: PreparedCreate, ctx: OperationContext): Promise<Result<KubeObject>> {
  return withWriteHooks(def, object, ctx.dryRun,
    () => registry.store.create(def, object, { dryRun: ctx.dryRun, retryGenerateName: prepared.generatedName }));
}

/** Creates `object` (its namespace already reconciled with the request's). */
export async function createObject(registry: Registry, def: ResourceDef, object: KubeObject, ctx: OperationContext): Promise<Result<KubeObject>> {
  const tracked = await trackForContext(def, '', undefined, object, ctx);
  const prepared = await prepareCreate(registry, def, tracked, ctx);
  if (!prepared.ok) return prepared;
  return writeCreate(registry, def, tracked, prepared.value, ctx);
}
