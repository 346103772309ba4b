/**
 * Create (the generic store's Create behind a POST, a create-on-update PUT, or a controller): mutating admission →
 * strategy prepare + validate → validating admission → storage write.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { Outcome } from '../../http/context.js';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import { admissionAttributes, type OperationContext } from './admission-attributes.js';
import { beforeCreate } from './prepare.js';
import { withWriteHooks } from './write-hooks.js';

/** Creates `object` (its namespace already reconciled with the request's). */
export async function createObject(registry: Registry, def: ResourceDef, object: KubeObject, ctx: OperationContext): Promise<Outcome<KubeObject>> {
  const namespace = def.namespaced ? object.metadata?.namespace ?? '' : '';
  const attrs = () => admissionAttributes(def, 'CREATE', '', namespace, object.metadata?.name ?? '', ctx, object);
  const refused = await def.strategy.authorizeWrite?.(object, undefined, ctx.user);
  if (refused !== undefined) return { ok: false, status: refused };
  const admitted = await registry.admission.admit(attrs());
  if (!admitted.allowed) return { ok: false, status: admitted.status };
  const prepared = beforeCreate(def, object);
  if (!prepared.ok) return prepared;
  const validated = await registry.admission.validate(attrs());
  if (!validated.allowed) return { ok: false, status: validated.status };
  return withWriteHooks(def, object, ctx.dryRun,
    () => registry.store.create(def, object, { dryRun: ctx.dryRun, retryGenerateName: prepared.value.generatedName }));
}
