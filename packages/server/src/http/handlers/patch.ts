/**
 * patch (PATCH on a named resource or its `status` subresource): options → decode → the patch type's mechanism
 * (registry/operations/patch-mechanisms/), made once with the checks that depend on the request alone → the guarded
 * write loop (registry/operations/guaranteed-update.ts), each attempt: the mechanism's next object → name must stay
 * → a resourceVersion in the patch is a precondition (409) → mutating admission → strategy prepare + validate →
 * validating admission → compare-and-swap write; a lost compare-and-swap reads again and re-applies the patch. A
 * patch that changes nothing keeps the resourceVersion.
 *
 * JSON patch, merge patch, strategic merge patch: the patched object is decoded as a body is (field validation of
 * its unknown fields plus the patch body's duplicate fields; 400/422 as kube answers a patch that does not apply),
 * defaulted, and managedFields record an Update (registry/operations/defaulting.ts). A missing object is 404.
 *
 * Server-side apply (`application/apply-patch+yaml`, document 1 §Server-side apply): `fieldManager` required
 * (422), the body checked once (no managedFields, the endpoint's apiVersion and kind, every field declared), then
 * merged into the live object by the field manager (409 on conflicts unless `force`), then defaulted; applying to a missing object
 * creates it (201) when the user may also `create` it (403 otherwise; see authorize-create.ts). Only duplicate
 * fields are subject to the field validation level.
 */
import { fail, type KubeObject, ok, type Result } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { DecodedBody } from '../decode-body.js';
import type { Registry } from '../../registry/registry.js';
import type { Authorizer } from '../../request/authorizer.js';
import { authorizeCreate } from './authorize-create.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createObject } from '../../registry/operations/create-object.js';
import { applyKindDefaults } from '../../registry/operations/defaulting.js';
import { fieldManagerScope, trackUpdate } from '../../registry/operations/field-management.js';
import { final, guaranteedUpdate } from '../../registry/operations/guaranteed-update.js';
import { applyMechanism } from '../../registry/operations/patch-mechanisms/apply.js';
import { patchMechanismFor } from '../../registry/operations/patch-mechanisms/mechanism-for.js';
import { withUpdateSteps, type PatchMechanism } from '../../registry/operations/patch-mechanisms/patch-mechanism.js';
import { optimisticLockFailure } from '../../registry/operations/preconditions.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { applyPatchType, checkApplyConfiguration, supportedPatchTypes, typedPatchFailure } from '../../patch/apply-patch.js';
import { patchSchemaOf } from '../../patch/patch-schema-of.js';
import { schemaProblems, schemaValidation, strictProblems } from './schema-check.js';
import type { WrittenObject } from './update.js';
import {
  checkNameMatches, checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings, type WriteOptions,
} from './request-options.js';
import { requestRecorder } from '../../admission/recorder.js';
import { addWarning, writeObjectYielding, writeStatus } from '../response-writer.js';
import { decodeBody } from '../decode-body.js';
import { yieldAfter } from '../../limits/turn-budget.js';

/** Serves a patch; `authorizer` answers the extra `create` check of an apply that creates. */
export async function handlePatch(ctx: RequestContext, registry: Registry, def: ResourceDef, authorizer: Authorizer): Promise<void> {
  const patchType = (ctx.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const options = parseWriteOptions(ctx.query, ctx.names, 'PatchOptions', ctx.headers['user-agent'], patchType === applyPatchType);
  if (!options.ok) return writeStatus(ctx, options.error);
  // Custom resources have no patch strategies to merge by: strategic merge patch is refused (kube's CRD handler).
  const patchTypes = def.custom !== undefined ? supportedPatchTypes.filter((t) => t !== 'application/strategic-merge-patch+json') : supportedPatchTypes;
  const began = performance.now();
  const decoded = await decodeBody(ctx, patchTypes);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const subresource = ctx.info.subresource;
  // A large body's decoding has used this turn: the checks start in the next one (limits/turn-budget.ts).
  await yieldAfter(began);
  const checking = performance.now();
  const made = mechanismOf(registry, def, { namespace, name, subresource }, decoded.value, options.value);
  if (!made.ok) return writeStatus(ctx, made.error);
  const mechanism = made.value;
  await yieldAfter(checking);
  const op = { user: ctx.user, dryRun: options.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  // kube's withAuthorization asks once, when an attempt first creates.
  let createAuthorization: Promise<Result<void>> | undefined;
  let warnings: readonly string[] = [];

  const guarded = { namespace, name, ignoreNotFound: mechanism.createsMissing && subresource === '' };
  const result = await guaranteedUpdate<WrittenObject>(registry, def, guarded, async (current) => {
    const patched = await mechanism.next(current);
    if (!patched.ok) return final(patched.error);
    warnings = patched.value.warnings;
    const next = patched.value.object;
    const named = checkNameMatches(next, name, namespace);
    if (!named.ok) return final(named.error);
    if (current === undefined) {
      const placed = reconcileNamespace(def, next, namespace);
      if (!placed.ok) return final(placed.error);
      delete next.metadata?.resourceVersion;
      createAuthorization ??= authorizeCreate(ctx, authorizer, def);
      const allowed = await createAuthorization;
      if (!allowed.ok) return final(allowed.error);
      const created = await createObject(registry, def, next, op);
      if (!created.ok) return { ...created, conflict: created.error.reason === 'AlreadyExists' };
      return ok({ code: 201, object: created.value, current });
    }
    const locked = optimisticLockFailure(def, name, next.metadata?.resourceVersion ?? '', current);
    if (locked !== undefined) return final(locked);
    (next.metadata ??= {}).resourceVersion = current.metadata?.resourceVersion ?? '';
    const written = await updateObject(registry, def, subresource, next, current, op);
    if (written.ok) return ok({ code: 200, object: written.value, current });
    // An apply whose object was deleted under it reads again, and creates it: kube's GuaranteedUpdate re-reads.
    if (guarded.ignoreNotFound && written.error.code === 404) return { ...written, conflict: true };
    return written;
  });
  sendWarnings(ctx, warnings);
  if (!result.ok) return writeStatus(ctx, result.error);
  sendWarnings(ctx, def.strategy.warnings(result.value.object, result.value.current));
  await writeObjectYielding(ctx, result.value.code, result.value.object);
}

/** Where a patch goes. */
interface PatchEndpoint {
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
}

/**
 * The mechanism of the request's patch type, with the checks that depend on the request alone done once: an apply
 * configuration's checks by the field manager and the field validation of its duplicate fields, a merge patch
 * that is not an object.
 */
function mechanismOf(registry: Registry, def: ResourceDef, at: PatchEndpoint, body: DecodedBody, options: WriteOptions): Result<PatchMechanism> {
  const duplicates = body.duplicateFields ?? [];
  if (body.mediaType === applyPatchType) {
    const configuration = body.object;
    const target = { group: def.group, version: def.version, kind: def.kind, namespace: at.namespace, name: at.name };
    const checked = checkApplyConfiguration(target, configuration);
    if (!checked.ok) return checked;
    const result = schemaValidation(registry, def, configuration);
    const typed = typedPatchFailure(target, result.unknownFields, result.errors.filter((e) => e.type === 'FieldValueTypeInvalid'));
    if (typed !== undefined) return fail(typed);
    return ok(applyMechanism({
      configuration, fieldManager: options.fieldManager, force: options.force, scope: fieldManagerScope(def, at.subresource),
      lastAppliedAnnotation: registry.names.domain('last-applied-configuration', 'kubectl'),
      fieldValidation: strictProblems(options.fieldValidation, duplicates, [], 'error strict decoding YAML: '),
      defaults: (object) => applyKindDefaults(def, object),
    }));
  }
  const mechanism = patchMechanismFor(body.mediaType, { qualified: def.qualified, name: at.name }, body.object, patchSchemaOf(def));
  if (!mechanism.ok) return mechanism;
  return ok(withUpdateSteps(mechanism.value, {
    check: (object: KubeObject) => {
      const typed = checkTypeMeta(def, object);
      return typed.ok ? schemaProblems(registry, def, object, options.fieldValidation, duplicates) : typed;
    },
    defaults: (object) => applyKindDefaults(def, object),
    track: (current, object) => trackUpdate(def, at.subresource, current, object, options.fieldManager),
  }));
}
