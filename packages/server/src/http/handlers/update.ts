/**
 * update (PUT on a named resource, its `status` or `finalize` subresource): options → decode → field validation
 * (unknown and duplicate fields) → name and namespace must match the URL → the kind's defaults
 * (registry/operations/defaulting.ts: before field management, so the manager owns what they fill) → the guarded write loop
 * (registry/operations/guaranteed-update.ts) with `metadata.uid`, when sent, as a precondition (409), each attempt:
 * read current → a missing object is created where the strategy allows it (201) → optimistic concurrency (409 on
 * a stale resourceVersion; without one, an unconditional update where the type allows it) → managed fields (an
 * Update, per subresource) → mutating admission → strategy prepare + validate → validating admission →
 * compare-and-swap write (none on a dry run); a lost compare-and-swap reads again.
 */
import { ok, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createObject } from '../../registry/operations/create-object.js';
import { applyKindDefaults } from '../../registry/operations/defaulting.js';
import { trackUpdate } from '../../registry/operations/field-management.js';
import { final, guaranteedUpdate } from '../../registry/operations/guaranteed-update.js';
import { optimisticLockFailure } from '../../registry/operations/preconditions.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { objectMediaTypes } from './create.js';
import { checkSchema } from './schema-check.js';
import {
  checkNameMatches, checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings,
} from './request-options.js';
import { requestRecorder } from '../../admission/recorder.js';
import { addWarning, writeObjectYielding, writeStatus } from '../response-writer.js';
import { decodeBody } from '../decode-body.js';
import { yieldAfter } from '../../limits/turn-budget.js';
import { cloneYielding } from '../../limits/json-slices.js';

/** What an update or a patch answers: the object it stored, its status code, and the object it replaced. */
export interface WrittenObject {
  readonly code: 200 | 201;
  readonly object: KubeObject;
  readonly current: KubeObject | undefined;
}

/** Serves an update. */
export async function handleUpdate(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query, ctx.names, 'UpdateOptions', ctx.headers['user-agent']);
  if (!options.ok) return writeStatus(ctx, options.error);
  const { dryRun, fieldValidation, fieldManager } = options.value;
  const began = performance.now();
  const decoded = await decodeBody(ctx, objectMediaTypes);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  const body = decoded.value.object;
  // A large body's decoding has used this turn: the checks start in the next one (limits/turn-budget.ts).
  await yieldAfter(began);
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const subresource = ctx.info.subresource;
  for (const step of [
    () => checkTypeMeta(def, body),
    () => checkSchema(ctx, registry, def, body, fieldValidation, decoded.value.duplicateFields),
    () => checkNameMatches(body, name, namespace),
    () => reconcileNamespace(def, body, namespace),
  ]) {
    const stepped = performance.now();
    const checked = step();
    if (!checked.ok) return writeStatus(ctx, checked.error);
    // A check over a large body gives the event loop back after it.
    await yieldAfter(stepped);
  }
  applyKindDefaults(def, body);
  const op = { user: ctx.user, dryRun: dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  const requestedVersion = body.metadata?.resourceVersion ?? '';
  const requestedUid = body.metadata?.uid ?? '';
  const guarded = {
    namespace, name, ignoreNotFound: subresource === '' && def.strategy.allowCreateOnUpdate,
    ...(requestedUid !== '' ? { preconditions: { uid: requestedUid } } : {}),
  };
  const result = await guaranteedUpdate<WrittenObject>(registry, def, guarded, async (current) => {
    if (current === undefined) {
      const created = await createObject(registry, def, await trackUpdate(def, '', undefined, await cloneYielding(body), fieldManager), op);
      if (!created.ok) return { ...created, conflict: created.error.reason === 'AlreadyExists' };
      return ok({ code: 201, object: created.value, current });
    }
    const locked = optimisticLockFailure(def, name, requestedVersion, current);
    if (locked !== undefined) return final(locked);
    const next: KubeObject = await cloneYielding(body);
    const meta = (next.metadata ??= {});
    if (requestedVersion === '' && def.strategy.allowUnconditionalUpdate) meta.resourceVersion = current.metadata?.resourceVersion ?? '';
    const written = await updateObject(registry, def, subresource, await trackUpdate(def, subresource, current, next, fieldManager), current, op);
    return written.ok ? ok({ code: 200, object: written.value, current }) : written;
  });
  if (!result.ok) return writeStatus(ctx, result.error);
  sendWarnings(ctx, def.strategy.warnings(result.value.object, result.value.current));
  await writeObjectYielding(ctx, result.value.code, result.value.object);
}
