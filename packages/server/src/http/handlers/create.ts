/**
 * create (POST on a collection): options → decode → field validation (unknown and duplicate fields) → the kind's
 * defaults (registry/operations/defaulting.ts: before field management, so the manager owns what they fill) → managed
 * fields (an Update by the field manager, default from the user agent) → mutating admission → strategy prepare +
 * validate → validating admission → storage write (see registry/operations/create-object.ts; none on a dry run)
 * → 201 with warnings.
 */
import { badRequest } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createObject } from '../../registry/operations/create-object.js';
import { applyKindDefaults } from '../../registry/operations/defaulting.js';
import { trackUpdate } from '../../registry/operations/field-management.js';
import { checkSchema } from './schema-check.js';
import {
  checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings,
} from './request-options.js';
import { requestRecorder } from '../../admission/recorder.js';
import { addWarning, writeObjectYielding, writeStatus } from '../response-writer.js';
import { decodeBody } from '../decode-body.js';
import { yieldAfter } from '../../limits/turn-budget.js';

/** Media types a create or update body may come in. */
export const objectMediaTypes: readonly string[] = ['application/json', 'application/yaml'];

/** Serves a create. */
export async function handleCreate(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query, ctx.names, 'CreateOptions', ctx.headers['user-agent']);
  if (!options.ok) return writeStatus(ctx, options.error);
  const { dryRun, fieldValidation, fieldManager } = options.value;
  const began = performance.now();
  const decoded = await decodeBody(ctx, objectMediaTypes);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  const object = decoded.value.object;
  // A large body's decoding has used this turn: the checks start in the next one (limits/turn-budget.ts).
  await yieldAfter(began);
  for (const step of [
    () => checkTypeMeta(def, object),
    () => checkSchema(ctx, registry, def, object, fieldValidation, decoded.value.duplicateFields),
    () => reconcileNamespace(def, object, requestNamespace(ctx, def)),
  ]) {
    const stepped = performance.now();
    const checked = step();
    if (!checked.ok) return writeStatus(ctx, checked.error);
    // A check over a large body gives the event loop back after it.
    await yieldAfter(stepped);
  }
  if (object.metadata?.resourceVersion) {
    return writeStatus(ctx, badRequest('resourceVersion should not be set on objects to be created'));
  }
  applyKindDefaults(def, object);
  const tracked = await trackUpdate(def, '', undefined, object, fieldManager);
  const created = await createObject(registry, def, tracked, { user: ctx.user, dryRun: dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) });
  if (!created.ok) return writeStatus(ctx, created.error);
  sendWarnings(ctx, def.strategy.warnings(created.value));
  await writeObjectYielding(ctx, 201, created.value);
}
