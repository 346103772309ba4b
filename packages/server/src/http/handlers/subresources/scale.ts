/**
 * The `scale` subresource of deployments, replicasets, statefulsets and replicationcontrollers (kube's ScaleREST):
 * an autoscaling/v1 Scale view of the workload. GET reads it; PUT and PATCH change `spec.replicas` only, through
 * the workload's own update strategy (as kube writes scale through the main store), with the Scale's
 * resourceVersion and uid as preconditions.
 */
import {
  apiVersionOf, conflict, fieldError, invalid, optimisticLockMessage, unsupportedMediaType, type KubeObject,
} from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { record } from '../../../registry/conversion/resource-conversion.js';
import { trackUpdate } from '../../../registry/operations/field-management.js';
import { updateObject } from '../../../registry/operations/update-object.js';
import { applyPatch, applyPatchType, supportedPatchTypes } from '../../../patch/apply-patch.js';
import { patchSchemaFromOpenApi, type PatchSchema } from '../../../patch/patch-schema.js';
import { generatedSchemas } from '../../../schema/generated-data.js';
import { checkNameMatches, parseWriteOptions, requestNamespace } from '../request-options.js';

const scaleSchemaName = 'io.k8s.api.autoscaling.v1.Scale';
let scalePatchSchema: PatchSchema | undefined;

/** A label selector (metav1.LabelSelector, or a replicationcontroller's plain map) as labels.Selector.String() prints it. */
export function selectorString(selector: unknown): string {
  const s = record(selector) ?? {};
  const isMap = s['matchLabels'] === undefined && s['matchExpressions'] === undefined;
  const matchLabels = record(isMap ? s : s['matchLabels']) ?? {};
  const parts: { key: string; text: string }[] = Object.entries(matchLabels).map(([k, v]) => ({ key: k, text: `${k}=${String(v)}` }));
  for (const raw of Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []) {
    const e = record(raw) ?? {};
    const key = String(e['key'] ?? '');
    const values = (Array.isArray(e['values']) ? e['values'].map(String) : []).sort();
    const op = String(e['operator'] ?? '');
    const text = op === 'In' ? `${key} in (${values.join(',')})` : op === 'NotIn' ? `${key} notin (${values.join(',')})`
      : op === 'Exists' ? key : `!${key}`;
    parts.push({ key, text });
  }
  // labels.Selector sorts its requirements by key.
  return parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((p) => p.text).join(',');
}

/** The Scale of a workload (kube's scaleFromDeployment and friends). */
export function scaleOf(def: ResourceDef, object: KubeObject): KubeObject {
  const sub = def.subresources.find((s) => s.name === 'scale');
  const meta = object.metadata ?? {};
  const spec = record(object['spec']) ?? {};
  const status = record(object.status) ?? {};
  const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 0;
  const scaleMeta: NonNullable<KubeObject['metadata']> = {};
  for (const key of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (meta[key] !== undefined) scaleMeta[key] = meta[key];
  }
  return {
    kind: 'Scale',
    apiVersion: apiVersionOf(sub?.group ?? 'autoscaling', sub?.version ?? 'v1'),
    metadata: scaleMeta,
    // ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: typeof status['replicas'] === 'number' ? status['replicas'] : 0, selector: selectorString(spec['selector']) },
  };
}

/** ValidateScale: replicas must not be negative. */
function validateScale(def: ResourceDef, scale: KubeObject, name: string): ReturnType<typeof invalid> | undefined {
  const replicas = record(scale['spec'])?.['replicas'] ?? 0;
  if (typeof replicas === 'number' && replicas >= 0) return undefined;
  const sub = def.subresources.find((s) => s.name === 'scale');
  return invalid('Scale', { group: sub?.group ?? 'autoscaling', resource: 'Scale' }, name,
    [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
}

/** Serves get, update and patch of a scale subresource. */
export async function handleScale(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  if (ctx.info.verb === 'get') {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) return ctx.writeStatus(got.status);
    return ctx.writeObject(200, scaleOf(def, got.value));
  }
  const isPatch = ctx.info.verb === 'patch';
  const options = parseWriteOptions(ctx.query, ctx.names, isPatch ? 'PatchOptions' : 'UpdateOptions', ctx.headers['user-agent']);
  if (!options.ok) return ctx.writeStatus(options.status);
  // Server-side apply of a Scale is not served here: the merge patch types cover kubectl scale and the autoscalers.
  const mediaTypes = isPatch ? supportedPatchTypes.filter((t) => t !== applyPatchType) : ['application/json', 'application/yaml'];
  const contentType = (ctx.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (isPatch && contentType === applyPatchType) return ctx.writeStatus(unsupportedMediaType(mediaTypes));
  const decoded = await ctx.decodeBody(mediaTypes);
  if (!decoded.ok) return ctx.writeStatus(decoded.status);
  const op = { user: ctx.user, dryRun: options.value.dryRun };
  for (let attempt = 0; attempt < 16; attempt++) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) return ctx.writeStatus(got.status);
    const current = got.value;
    let scale: KubeObject = decoded.value.object;
    if (isPatch) {
      scalePatchSchema ??= patchSchemaFromOpenApi(generatedSchemas(), scaleSchemaName);
      const patched = applyPatch(decoded.value.mediaType, scaleOf(def, current), decoded.value.object, scalePatchSchema);
      if (!patched.ok) return ctx.writeStatus(patched.status);
      scale = patched.value;
    }
    const named = checkNameMatches(scale, name, namespace);
    if (!named.ok) return ctx.writeStatus(named.status);
    const bad = validateScale(def, scale, name);
    if (bad !== undefined) return ctx.writeStatus(bad);
    const wantVersion = scale.metadata?.resourceVersion ?? '';
    const wantUid = scale.metadata?.uid ?? '';
    if (wantUid !== '' && wantUid !== current.metadata?.uid) {
      return ctx.writeStatus(conflict(def.qualified, name, `Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${current.metadata?.uid ?? ''}`));
    }
    if (wantVersion !== '' && wantVersion !== current.metadata?.resourceVersion) {
      return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
    }
    const next = structuredClone(current);
    const spec = (next['spec'] ??= {}) as Record<string, unknown>;
    spec['replicas'] = record(scale['spec'])?.['replicas'] ?? 0;
    const tracked = trackUpdate(def, 'scale', current, next, options.value.fieldManager);
    const written = await updateObject(registry, def, 'scale', tracked, current, op);
    // Without a resourceVersion the client asked for the change whatever the version: retry on a race.
    if (!written.ok && written.conflict && wantVersion === '') continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    return ctx.writeObject(200, scaleOf(def, written.value));
  }
  return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
}
