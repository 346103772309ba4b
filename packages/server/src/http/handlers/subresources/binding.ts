/**
 * `pods/binding` and the core `bindings` resource (kube's BindingREST): POST a Binding assigns the pod to the
 * target node. The target must be a Node (or have no kind) with a name; a pod already assigned or being deleted
 * answers 409; the Binding's annotations are copied onto the pod and the PodScheduled condition set. 201 Success.
 */
import { badRequest, conflict, fieldError, invalid, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { record } from '../../../registry/conversion/resource-conversion.js';
import { nowTimestamp } from '../../../registry/operations/prepare.js';
import { parseWriteOptions, requestNamespace } from '../request-options.js';
import { createdSuccess, podsDef, readSubresourceBody } from './common.js';

/** ValidatePodBinding. */
function validateBinding(binding: KubeObject): ReturnType<typeof fieldError.required>[] {
  const target = record(binding['target']) ?? {};
  const errs = [];
  const kind = target['kind'];
  if (kind !== undefined && kind !== '' && kind !== 'Node') errs.push(fieldError.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (typeof target['name'] !== 'string' || target['name'] === '') errs.push(fieldError.required('target.name', ''));
  return errs;
}

/** Serves a binding create (pods/binding or bindings). */
export async function handleBinding(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query, ctx.names, 'CreateOptions', ctx.headers['user-agent']);
  if (!options.ok) return ctx.writeStatus(options.status);
  const viaPod = ctx.info.subresource === 'binding';
  const read = await readSubresourceBody(ctx, 'Binding', viaPod ? ctx.info.name : '');
  if (!read.ok) return ctx.writeStatus(read.status);
  const binding = read.value;
  const namespace = requestNamespace(ctx, def);
  const name = viaPod ? ctx.info.name : binding.metadata?.name ?? '';
  if (name === '') return ctx.writeStatus(badRequest('name is required in the Binding object'));
  const errs = validateBinding(binding);
  if (errs.length > 0) return ctx.writeStatus(invalid('Binding', { group: '', resource: 'bindings' }, name, errs));
  const pods = podsDef(registry);
  if (pods === undefined) return ctx.writeStatus(badRequest('pods are not served'));
  const nodeName = String(record(binding['target'])?.['name']);
  const bindingQr = { group: '', resource: 'pods/binding' };
  for (;;) {
    const got = await registry.store.get(pods, namespace, name);
    if (!got.ok) return ctx.writeStatus(got.status);
    const pod = structuredClone(got.value);
    if (pod.metadata?.deletionTimestamp !== undefined) {
      return ctx.writeStatus(conflict(bindingQr, name, `pod ${name} is being deleted, cannot be assigned to a host`));
    }
    const spec = (pod['spec'] ??= {}) as Record<string, unknown>;
    if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
      return ctx.writeStatus(conflict(bindingQr, name, `pod ${name} is already assigned to node "${spec['nodeName']}"`));
    }
    spec['nodeName'] = nodeName;
    const annotations = binding.metadata?.annotations ?? {};
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
    const written = await registry.store.update(pods, pod, { dryRun: options.value.dryRun });
    if (!written.ok && written.conflict) continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    return ctx.writeStatus(createdSuccess());
  }
}
