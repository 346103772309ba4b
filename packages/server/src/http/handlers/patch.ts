/**
 * patch (PATCH on a named resource or its `status` subresource) with a JSON merge patch or a JSON patch:
 * read current → apply the patch → field validation → name must stay → a resourceVersion in the patch is a
 * precondition (409) → mutating admission → strategy prepare + validate → validating admission → compare-and-swap
 * write, re-reading and re-applying the patch on conflicts. A patch that changes nothing keeps the resourceVersion.
 */
import { conflict, optimisticLockMessage } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { applyPatch, supportedPatchTypes } from '../../patch/apply-patch.js';
import { patchSchemaOf } from '../../patch/patch-schema-of.js';
import { checkSchema } from './schema-check.js';
import { checkNameMatches, checkTypeMeta, parseWriteOptions, requestNamespace, sendWarnings } from './request-options.js';

/** Compare-and-swap attempts before a patch gives up with 409 (kube's patcher retries a few times as well). */
const maxAttempts = 16;

/** Serves a patch. */
export async function handlePatch(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query);
  if (!options.ok) return ctx.writeStatus(options.status);
  const { dryRun, fieldValidation } = options.value;
  const decoded = await ctx.decodeBody(supportedPatchTypes);
  if (!decoded.ok) return ctx.writeStatus(decoded.status);
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const op = { user: ctx.user, dryRun: dryRun };
  for (let attempt = 0; ; attempt++) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) return ctx.writeStatus(got.status);
    const current = got.value;
    const patched = applyPatch(decoded.value.mediaType, current, decoded.value.object, patchSchemaOf(def));
    if (!patched.ok) return ctx.writeStatus(patched.status);
    const next = patched.value;
    for (const step of [
      () => checkTypeMeta(def, next),
      () => checkNameMatches(next, name, namespace),
      // Unknown fields are reported once, on the first attempt.
      () => checkSchema(attempt === 0 ? ctx : { ...ctx, warn: () => {} }, registry, def, next, fieldValidation),
    ]) {
      const checked = step();
      if (!checked.ok) return ctx.writeStatus(checked.status);
    }
    if ((next.metadata?.resourceVersion ?? '') !== (current.metadata?.resourceVersion ?? '')) {
      if (next.metadata?.resourceVersion) return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
      (next.metadata ??= {}).resourceVersion = current.metadata?.resourceVersion ?? '';
    }
    const written = await updateObject(registry, def, ctx.info.subresource, next, current, op);
    if (!written.ok && written.conflict && attempt + 1 < maxAttempts) continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    sendWarnings(ctx, def.strategy.warnings(written.value, current));
    return ctx.writeObject(200, written.value);
  }
}
