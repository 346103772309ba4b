/**
 * Admission of connect requests (kube's ConnectResource handler): exec, attach, portforward and proxy are admitted
 * as CONNECT of their options object (PodExecOptions, PodAttachOptions, PodPortForwardOptions, PodProxyOptions,
 * ServiceProxyOptions, NodeProxyOptions) read from the query, before anything is connected.
 */
import type { KubeObject, Status } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import { requestRecorder } from '../../../admission/recorder.js';
import { admissionAttributes, admitRequest, subresourceKind } from '../../../registry/operations/admission-attributes.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { requestNamespace } from '../request-options.js';
import { addWarning } from '../../response-writer.js';

const flag = (q: URLSearchParams, key: string): boolean | undefined => {
  const v = q.get(key);
  return v === null ? undefined : v === 'true' || v === '1';
};

/** The connect options of the request as its kind carries them (only the fields the query sets). */
function connectOptions(ctx: RequestContext, def: ResourceDef, subresource: string): KubeObject {
  const kind = subresourceKind(def, subresource);
  const q = ctx.query;
  const fields: Record<string, unknown> = {};
  for (const key of ['stdin', 'stdout', 'stderr', 'tty']) {
    const v = flag(q, key);
    if (v !== undefined && (subresource === 'exec' || subresource === 'attach')) fields[key] = v;
  }
  const container = q.get('container');
  if (container !== null && (subresource === 'exec' || subresource === 'attach')) fields['container'] = container;
  if (subresource === 'exec' && q.getAll('command').length > 0) fields['command'] = q.getAll('command');
  if (subresource === 'portforward' && q.getAll('ports').length > 0) fields['ports'] = q.getAll('ports').map(Number);
  if (subresource === 'proxy') {
    const path = ctx.info.parts.slice(3).join('/');
    if (path !== '') fields['path'] = path;
  }
  return { kind: kind.kind, apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`, ...fields };
}

/** Runs both admission phases for a connect request; the Status of a refusal. */
export async function admitConnect(ctx: RequestContext, registry: Registry, def: ResourceDef, subresource: string): Promise<Status | undefined> {
  const op = { user: ctx.user, dryRun: false, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  const attributes = admissionAttributes(def, 'CONNECT', subresource, requestNamespace(ctx, def), ctx.info.name, op, connectOptions(ctx, def, subresource));
  return admitRequest(registry, attributes, op);
}
