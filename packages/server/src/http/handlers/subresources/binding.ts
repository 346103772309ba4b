/**
 * `pods/binding` and the core `bindings` resource: POST a Binding to assign the pod to the target node (the
 * operation, admission included, is registry/operations/bind-pod.ts). 201 Success.
 */
import { badRequest } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { bindPod } from '../../../registry/operations/bind-pod.js';
import { parseWriteOptions, requestNamespace } from '../request-options.js';
import { createdSuccess, podsDef, readSubresourceBody } from './common.js';
import { requestRecorder } from '../../../admission/recorder.js';
import { addWarning, writeStatus } from '../../response-writer.js';

/** Serves a binding create (pods/binding or bindings). */
export async function handleBinding(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query, ctx.names, 'CreateOptions', ctx.headers['user-agent']);
  if (!options.ok) return writeStatus(ctx, options.error);
  const subresource = ctx.info.subresource;
  const read = await readSubresourceBody(ctx, 'Binding', subresource === 'binding' ? ctx.info.name : '');
  if (!read.ok) return writeStatus(ctx, read.error);
  const binding = read.value;
  const name = subresource === 'binding' ? ctx.info.name : binding.metadata?.name ?? '';
  if (name === '') return writeStatus(ctx, badRequest('name is required in the Binding object'));
  const pods = podsDef(registry);
  if (pods === undefined) return writeStatus(ctx, badRequest('pods are not served'));
  const request = { def, subresource, namespace: requestNamespace(ctx, def), name };
  const bound = await bindPod(registry, pods, request, binding, { user: ctx.user, dryRun: options.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) });
  if (!bound.ok) return writeStatus(ctx, bound.error);
  writeStatus(ctx, createdSuccess());
}
