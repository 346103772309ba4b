/**
 * `pods/eviction` (kube's EvictionREST, policy/v1 Eviction): deletes the pod unless that would violate its
 * PodDisruptionBudget. The Eviction is admitted as itself (CREATE of kind Eviction on pods/eviction); the pod's
 * deletion then runs no admission of its own, as in kube. Pods that are terminal, pending or already being deleted
 * are deleted without looking at budgets; a pod covered by more than one budget answers 500; a budget whose status
 * has not caught up with its spec, or which allows no disruption, answers 429 TooManyRequests with a
 * DisruptionBudget cause. An allowed eviction takes one disruption from the budget's status (recording the pod in
 * `disruptedPods`) before the delete: a status update through the budget's status strategy, admission and
 * managedFields, made as the server's loopback identity and retried on conflicts with the budgets read again.
 * A not-ready pod is evicted without taking a disruption while the budget is healthy (the default
 * `unhealthyPodEvictionPolicy: IfHealthyBudget`) or always with `AlwaysAllow`.
 */
import { failure, forbidden, ok, type KubeObject, type Status } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { record } from '../../../registry/conversion/resource-conversion.js';
import { admissionAttributes, admitRequest } from '../../../registry/operations/admission-attributes.js';
import { deleteObject } from '../../../registry/operations/delete-object.js';
import { trackUpdate } from '../../../registry/operations/field-management.js';
import { final, retryOnConflict } from '../../../registry/operations/guaranteed-update.js';
import { loopbackManager, loopbackUser } from '../../../registry/operations/loopback.js';
import { nowTimestamp } from '../../../registry/operations/prepare.js';
import { updateObject } from '../../../registry/operations/update-object.js';
import { selectEverything } from '../../../registry/selection.js';
import { selectorMatches } from '../../../registry/resources/pod-spec.js';
import { parseDryRun, requestNamespace } from '../request-options.js';
import { createdSuccess, readSubresourceBody } from './common.js';
import { requestRecorder } from '../../../admission/recorder.js';
import { addWarning, writeStatus } from '../../response-writer.js';

const violationMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

/** 429 TooManyRequests with a DisruptionBudget cause (kube's eviction answer). */
export function budgetViolation(cause: string): Status {
  return failure('TooManyRequests', violationMessage, { causes: [{ reason: 'DisruptionBudget', message: cause }] }, 429);
}

/** The PodReady condition is True. */
function isReady(pod: KubeObject): boolean {
  const conditions = record(pod.status)?.['conditions'];
  return Array.isArray(conditions) && conditions.some((c) => record(c)?.['type'] === 'Ready' && record(c)?.['status'] === 'True');
}

/** Budgets never govern pods that are done, not yet running or already going away (canIgnorePDB). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = record(pod.status)?.['phase'];
  return pod.metadata?.deletionTimestamp !== undefined || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
}

type Decision = { readonly allow: true; readonly take: boolean } | { readonly allow: false; readonly status: Status };

/** Whether the budget allows evicting `pod`, and whether the eviction takes one of its disruptions. */
export function budgetDecision(pdb: KubeObject, pod: KubeObject): Decision {
  const name = pdb.metadata?.name ?? '';
  const spec = record(pdb['spec']) ?? {};
  const status = record(pdb.status) ?? {};
  const observed = typeof status['observedGeneration'] === 'number' ? status['observedGeneration'] : 0;
  const currentHealthy = typeof status['currentHealthy'] === 'number' ? status['currentHealthy'] : 0;
  const desiredHealthy = typeof status['desiredHealthy'] === 'number' ? status['desiredHealthy'] : 0;
  if (!isReady(pod)) {
    if (spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow') return { allow: true, take: false };
    if (observed >= (pdb.metadata?.generation ?? 0) && currentHealthy >= desiredHealthy && desiredHealthy > 0) return { allow: true, take: false };
  }
  if (observed < (pdb.metadata?.generation ?? 0)) {
    return { allow: false, status: budgetViolation(`The disruption budget ${name} is still being processed by the server.`) };
  }
  const allowed = typeof status['disruptionsAllowed'] === 'number' ? status['disruptionsAllowed'] : 0;
  if (allowed < 0) return { allow: false, status: forbidden({ group: 'policy', resource: 'poddisruptionbudgets' }, name, 'pdb disruptions allowed is negative') };
  if (allowed === 0) {
    return { allow: false, status: budgetViolation(`The disruption budget ${name} needs ${desiredHealthy} healthy pods and has ${currentHealthy} currently`) };
  }
  return { allow: true, take: true };
}

/** Serves an eviction. */
export async function handleEviction(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const dryRun = parseDryRun(ctx.query, ctx.names, 'CreateOptions');
  if (!dryRun.ok) return writeStatus(ctx, dryRun.error);
  const name = ctx.info.name;
  const read = await readSubresourceBody(ctx, 'Eviction', name);
  if (!read.ok) return writeStatus(ctx, read.error);
  const eviction = read.value;
  const namespace = requestNamespace(ctx, def);
  const deleteOptions = record(eviction['deleteOptions']) ?? {};
  const isDryRun = dryRun.value || (Array.isArray(deleteOptions['dryRun']) && deleteOptions['dryRun'].includes('All'));
  const op = { user: ctx.user, dryRun: isDryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  const refused = await admitRequest(registry, admissionAttributes(def, 'CREATE', 'eviction', namespace, name, op, eviction), op);
  if (refused !== undefined) return writeStatus(ctx, refused);

  const preconditions = record(deleteOptions['preconditions']) ?? {};
  const remove = async (): Promise<void> => {
    const pre = {
      ...(typeof preconditions['uid'] === 'string' ? { uid: preconditions['uid'] } : {}),
      ...(typeof preconditions['resourceVersion'] === 'string' ? { resourceVersion: preconditions['resourceVersion'] } : {}),
    };
    const deleted = await deleteObject(registry, def, namespace, name, { ...op, admitted: true }, pre);
    if (!deleted.ok) return writeStatus(ctx, deleted.error);
    writeStatus(ctx, createdSuccess());
  };
  const got = await registry.store.get(def, namespace, name);
  if (!got.ok) return writeStatus(ctx, got.error);
  const pod = got.value;
  if (canIgnoreBudget(pod)) return remove();
  const pdbDef = registry.all().find((d) => d.groupKey === 'policy' && d.version === 'v1' && d.resource === 'poddisruptionbudgets');
  if (pdbDef === undefined) return remove();
  const labels = pod.metadata?.labels ?? {};
  const checked = await retryOnConflict(async () => {
    const list = await registry.store.list(pdbDef, { namespace, selection: selectEverything });
    if (!list.ok) return final(list.error);
    // policy/v1: a missing selector selects no pods, an empty one every pod of the namespace.
    const budgets = (list.value.items as KubeObject[]).filter((p) => {
      const selector = record(p['spec'])?.['selector'];
      return selector !== undefined && selectorMatches(selector, labels);
    });
    if (budgets.length === 0) return ok(undefined);
    if (budgets.length > 1) {
      return final(failure('InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', undefined, 500));
    }
    const pdb = budgets[0]!;
    const decision = budgetDecision(pdb, pod);
    if (!decision.allow) return final(decision.status);
    if (!decision.take) return ok(undefined);
    const next = structuredClone(pdb);
    const status = (next.status ??= {}) as Record<string, unknown>;
    status['disruptionsAllowed'] = (status['disruptionsAllowed'] as number) - 1;
    status['disruptedPods'] = { ...record(status['disruptedPods']), [name]: nowTimestamp() };
    const tracked = await trackUpdate(pdbDef, 'status', pdb, next, loopbackManager(registry.names));
    const written = await updateObject(registry, pdbDef, 'status', tracked, pdb, { user: loopbackUser, dryRun: isDryRun });
    return written.ok ? ok(undefined) : written;
  });
  if (!checked.ok) return writeStatus(ctx, checked.error);
  return remove();
}
