/**
 * patch (PATCH on a named resource or its `status` subresource).
 *
 * JSON patch, merge patch, strategic merge patch: read current → apply the patch (400/422 as kube answers a patch
 * that does not apply) → field validation of the result plus duplicate fields of the patch body → name must stay
 * → a resourceVersion in the patch is a precondition (409) → managed fields (an Update) → mutating admission →
 * strategy prepare + validate → validating admission → compare-and-swap write, re-reading and re-applying the
 * patch on conflicts. A patch that changes nothing keeps the resourceVersion.
 *
 * Server-side apply (`application/apply-patch+yaml`, document 1 §Server-side apply): `fieldManager` required
 * (422), the body checked (no managedFields, the endpoint's apiVersion and kind, every field declared), then merged
 * into the live object by the field manager (409 on conflicts unless `force`); applying to a missing object creates
 * it (201) when the user may also `create` it (403 otherwise; see authorize-create.ts). Only duplicate fields are
 * subject to the field validation level.
 */
import { conflict, failure, optimisticLockMessage, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { authorizeCreate } from './authorize-create.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { applyConfiguration, type ManagedObject } from '../../apply/field-manager.js';
import { conflictStatus } from '../../apply/conflicts.js';
import { createObject } from '../../registry/operations/create-object.js';
import { fieldManagerScope, trackUpdate } from '../../registry/operations/field-management.js';
import { updateObject } from '../../registry/operations/update-object.js';
import {
  applyPatch, applyPatchType, checkApplyConfiguration, supportedPatchTypes, typedPatchFailure,
} from '../../patch/apply-patch.js';
import { patchSchemaOf } from '../../patch/patch-schema-of.js';
import { checkSchema, reportStrictProblems } from './schema-check.js';
import {
  checkNameMatches, checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings,
} from './request-options.js';

/** Compare-and-swap attempts before a patch gives up with 409 (kube's patcher retries a few times as well). */
const maxAttempts = 16;

/** Serves a patch; `authorizer` answers the extra `create` check of an apply that creates. */
export async function handlePatch(ctx: RequestContext, registry: Registry, def: ResourceDef, authorizer: Authorizer): Promise<void> {
  const contentType = ctx.headers['content-type'] ?? '';
  const isApply = contentType.split(';')[0]!.trim().toLowerCase() === applyPatchType;
  const options = parseWriteOptions(ctx.query, ctx.names, 'PatchOptions', ctx.headers['user-agent'], isApply);
  if (!options.ok) return ctx.writeStatus(options.status);
  const { dryRun, fieldValidation, fieldManager, force } = options.value;
  const decoded = await ctx.decodeBody(supportedPatchTypes);
  if (!decoded.ok) return ctx.writeStatus(decoded.status);
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const subresource = ctx.info.subresource;
  const duplicates = decoded.value.duplicateFields ?? [];
  const op = { user: ctx.user, dryRun: dryRun };
  const scope = fieldManagerScope(def, subresource);
  const target = { group: def.group, version: def.version, kind: def.kind, namespace, name };

  let config: KubeObject | undefined;
  // Asked once, on the first attempt that creates (kube's withAuthorization caches its decision the same way).
  let createAllowed = false;
  if (isApply) {
    config = decoded.value.object;
    const checked = checkApplyConfiguration(target, config);
    if (!checked.ok) return ctx.writeStatus(checked.status);
    const result = registry.validator.validate(def.schemaName, config);
    const typed = typedPatchFailure(target, result.unknownFields, result.errors.filter((e) => e.type === 'FieldValueTypeInvalid'));
    if (typed !== undefined) return ctx.writeStatus(typed);
  }

  for (let attempt = 0; ; attempt++) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok && !(config !== undefined && got.status.code === 404 && subresource === '')) return ctx.writeStatus(got.status);
    const current = got.ok ? got.value : undefined;
    let next: KubeObject;
    if (config !== undefined) {
      const applied = applyConfiguration(current as ManagedObject | undefined, config as ManagedObject, fieldManager, force, scope);
      if (!applied.ok) {
        if (applied.reason === 'conflict') return ctx.writeStatus(conflictStatus(applied.conflicts));
        return ctx.writeStatus(failure('Unknown', applied.message, undefined, 500));
      }
      next = applied.value as KubeObject;
      // Only duplicate fields remain for field validation: the schema already accepted every field.
      const reported = attempt === 0 ? reportStrictProblems(ctx, fieldValidation, duplicates, []) : { ok: true as const, value: undefined };
      if (!reported.ok) return ctx.writeStatus({ ...reported.status, message: reported.status.message!.replace('strict decoding error: ', 'error strict decoding YAML: ') });
    } else {
      const patched = applyPatch(decoded.value.mediaType, current!, decoded.value.object, patchSchemaOf(def));
      if (!patched.ok) return ctx.writeStatus(patched.status);
      next = patched.value;
    }
    const quiet = attempt === 0 ? ctx : { ...ctx, warn: () => {} };
    for (const step of [
      () => checkTypeMeta(def, next),
      () => checkNameMatches(next, name, namespace),
      // Unknown fields are reported once, on the first attempt; an apply body was checked against the schema.
      () => (config !== undefined ? { ok: true as const, value: undefined } : checkSchema(quiet, registry, def, next, fieldValidation, duplicates)),
    ]) {
      const checked = step();
      if (!checked.ok) return ctx.writeStatus(checked.status);
    }
    if (current === undefined) {
      const placed = reconcileNamespace(def, next, namespace);
      if (!placed.ok) return ctx.writeStatus(placed.status);
      delete next.metadata?.resourceVersion;
      if (!createAllowed) {
        const allowed = await authorizeCreate(ctx, authorizer, def);
        if (!allowed.ok) return ctx.writeStatus(allowed.status);
        createAllowed = true;
      }
      const created = await createObject(registry, def, next, op);
      if (!created.ok && created.status.reason === 'AlreadyExists' && attempt + 1 < maxAttempts) continue;
      if (!created.ok) return ctx.writeStatus(created.status);
      sendWarnings(ctx, def.strategy.warnings(created.value));
      return ctx.writeObject(201, created.value);
    }
    if ((next.metadata?.resourceVersion ?? '') !== (current.metadata?.resourceVersion ?? '')) {
      if (next.metadata?.resourceVersion) return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
      (next.metadata ??= {}).resourceVersion = current.metadata?.resourceVersion ?? '';
    }
    if (config === undefined) next = trackUpdate(def, subresource, current, next, fieldManager);
    const written = await updateObject(registry, def, subresource, next, current, op);
    if (!written.ok && written.conflict && attempt + 1 < maxAttempts) continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    sendWarnings(ctx, def.strategy.warnings(written.value, current));
    return ctx.writeObject(200, written.value);
  }
}
