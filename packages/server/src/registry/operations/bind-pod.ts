/**
 * `pods/binding` and the core `bindings` resource (kube's BindingREST.Create): the Binding is admitted as itself
 * (CREATE of kind Binding on pods/binding, or on bindings) around its own validation (ValidatePodBinding: the
 * target must be a Node, or have no kind, and have a name), then set onto the pod as kube's assignPod does —
 * straight into storage, without the pod's update strategy or managedFields — under the Binding's uid and
 * resourceVersion as preconditions. A pod being deleted or already assigned answers 409 on pods/binding; the
 * Binding's annotations are copied onto the pod and its PodScheduled condition is set.
 */
import { conflict, fail, fieldError, invalid, type FieldError, type KubeObject, type Result } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import { admissionAttributes, runAdmission, type OperationContext } from './admission-attributes.js';
import { final, guaranteedUpdate } from './guaranteed-update.js';
import type { Preconditions } from './preconditions.js';
import { nowTimestamp } from './prepare.js';

/** ValidatePodBinding. */
function validateBinding(binding: KubeObject): FieldError[] {
  const target = record(binding['target']) ?? {};
  const errs: FieldError[] = [];
  const kind = target['kind'];
  if (kind !== undefined && kind !== '' && kind !== 'Node') errs.push(fieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (typeof target['name'] !== 'string' || target['name'] === '') errs.push(fieldError.required('target.name', ''));
  return errs;
}

/** The request a Binding arrives by: `pods` with subresource `binding`, or the `bindings` resource. */
export interface BindingRequest {
  readonly def: ResourceDef;
  readonly subresource: string;
  readonly namespace: string;
  /** The pod's name: the URL's (pods/binding) or the Binding's (bindings). */
  readonly name: string;
}

/** Binds the pod `request.name` of `pods` to the Binding's target node. */
export async function bindPod(
  registry: Registry, pods: ResourceDef, request: BindingRequest, binding: KubeObject, ctx: OperationContext,
): Promise<Result<KubeObject>> {
  const { namespace, name } = request;
  const attrs = () => admissionAttributes(request.def, 'CREATE', request.subresource, namespace, name, ctx, binding);
  const refused = await runAdmission(registry, 'admit', attrs(), ctx);
  if (refused !== undefined) return fail(refused);
  const errs = validateBinding(binding);
  if (errs.length > 0) return fail(invalid('Binding', { group: '', resource: 'bindings' }, name, errs));
  const invalidated = await runAdmission(registry, 'validate', attrs(), ctx);
  if (invalidated !== undefined) return fail(invalidated);

  const nodeName = String(record(binding['target'])?.['name']);
  const annotations = binding.metadata?.annotations ?? {};
  const preconditions: Preconditions = {
    ...(binding.metadata?.uid ? { uid: binding.metadata.uid } : {}),
    ...(binding.metadata?.resourceVersion ? { resourceVersion: binding.metadata.resourceVersion } : {}),
  };
  const bindingResource = { group: '', resource: 'pods/binding' };
  return guaranteedUpdate(registry, pods, { namespace, name, preconditions }, async (current) => {
    if (current.metadata?.deletionTimestamp !== undefined) {
      return final(conflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`));
    }
    const pod = structuredClone(current);
    const spec = (pod['spec'] ??= {}) as Record<string, unknown>;
    if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
      return final(conflict(bindingResource, name, `pod ${name} is already assigned to node "${spec['nodeName']}"`));
    }
    spec['nodeName'] = nodeName;
    if (Object.keys(annotations).length > 0) {
      const meta = (pod.metadata ??= {});
      meta.annotations = { ...meta.annotations, ...annotations };
    }
    const status = (pod.status ??= {}) as Record<string, unknown>;
    const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []) as Record<string, unknown>[];
    status['conditions'] = [
      ...conditions.filter((c) => c['type'] !== 'PodScheduled'),
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTimestamp() },
    ];
    return registry.store.update(pods, pod, { dryRun: ctx.dryRun });
  });
}
