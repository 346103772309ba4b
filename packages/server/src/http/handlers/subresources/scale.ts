/**
 * The `scale` subresource of deployments, replicasets, statefulsets and replicationcontrollers (kube's ScaleREST;
 * the Scale view and its way back are registry/operations/scale-subresource.ts): GET reads the autoscaling/v1
 * Scale; PUT and PATCH change `spec.replicas` only, in the guarded write loop, through the workload's own update
 * strategy (as kube writes scale through the main store), admitted as a Scale on the subresource, with the
 * Scale's resourceVersion and uid as preconditions.
 */
import { unsupportedMediaType } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { trackUpdate } from '../../../registry/operations/field-management.js';
import { final, guaranteedUpdate } from '../../../registry/operations/guaranteed-update.js';
import { patchMechanismFor, storedObjectPatchTypes } from '../../../registry/operations/patch-mechanisms/mechanism-for.js';
import type { PatchMechanism } from '../../../registry/operations/patch-mechanisms/patch-mechanism.js';
import { optimisticLockFailure, preconditionFailure } from '../../../registry/operations/preconditions.js';
import { scaleOf, validateScale, withReplicas } from '../../../registry/operations/scale-subresource.js';
import { updateObject } from '../../../registry/operations/update-object.js';
import { applyPatchType } from '../../../patch/apply-patch.js';
import { patchSchemaFromOpenApi, type PatchSchema } from '../../../patch/patch-schema.js';
import { generatedSchemas } from '../../../schema/generated-data.js';
import { checkNameMatches, parseWriteOptions, requestNamespace } from '../request-options.js';
import { requestRecorder } from '../../../admission/recorder.js';
import { addWarning, writeObject, writeStatus } from '../../response-writer.js';
import { decodeBody } from '../../decode-body.js';

export { selectorString } from '../../../registry/operations/scale-subresource.js';

const scaleSchemaName = 'io.k8s.api.autoscaling.v1.Scale';
let scalePatchSchema: PatchSchema | undefined;

/** Serves get, update and patch of a scale subresource. */
export async function handleScale(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  if (ctx.info.verb === 'get') {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) return writeStatus(ctx, got.error);
    return writeObject(ctx, 200, scaleOf(def, got.value));
  }
  const isPatch = ctx.info.verb === 'patch';
  const options = parseWriteOptions(ctx.query, ctx.names, isPatch ? 'PatchOptions' : 'UpdateOptions', ctx.headers['user-agent']);
  if (!options.ok) return writeStatus(ctx, options.error);
  // Server-side apply of a Scale is not served here: the merge patch types cover kubectl scale and the autoscalers.
  const mediaTypes = isPatch ? storedObjectPatchTypes : ['application/json', 'application/yaml'];
  const contentType = (ctx.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (isPatch && contentType === applyPatchType) return writeStatus(ctx, unsupportedMediaType(mediaTypes));
  const decoded = await decodeBody(ctx, mediaTypes);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  const body = decoded.value.object;
  let mechanism: PatchMechanism | undefined;
  if (isPatch) {
    scalePatchSchema ??= patchSchemaFromOpenApi(generatedSchemas(), scaleSchemaName);
    const made = patchMechanismFor(decoded.value.mediaType, { qualified: def.qualified, name }, body, scalePatchSchema);
    if (!made.ok) return writeStatus(ctx, made.error);
    mechanism = made.value;
  }
  const op = { user: ctx.user, dryRun: options.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  const result = await guaranteedUpdate(registry, def, { namespace, name }, async (current) => {
    let scale = body;
    if (mechanism !== undefined) {
      const patched = await mechanism.next(scaleOf(def, current));
      if (!patched.ok) return final(patched.error);
      scale = patched.value.object;
    }
    const failed = checkNameMatches(scale, name, namespace);
    if (!failed.ok) return final(failed.error);
    const refused = validateScale(def, scale, name)
      ?? preconditionFailure(def, name, current, scale.metadata?.uid ? { uid: scale.metadata.uid } : undefined)
      ?? optimisticLockFailure(def, name, scale.metadata?.resourceVersion ?? '', current);
    if (refused !== undefined) return final(refused);
    const next = withReplicas(def, current, scale);
    return updateObject(registry, def, 'scale', await trackUpdate(def, 'scale', current, next, options.value.fieldManager), current, op);
  });
  if (!result.ok) return writeStatus(ctx, result.error);
  writeObject(ctx, 200, scaleOf(def, result.value));
}
