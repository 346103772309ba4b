/**
 * The `proxy` subresource of pods, services and nodes (kube's ProxyREST): the object must exist (404). A pod is
 * reached through its node (400 without a host, else 503 as no node agent runs); a service has no endpoint this
 * server can reach (503 `no endpoints available for service "x"`, kube's answer for a service without ready
 * endpoints); a node has no agent (503).
 */
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { serviceUnavailable } from '@svc-apiserver/api';
import { nodeAgentUnavailable, podAgentUnavailable, readTarget } from './node-agent.js';
import { admitConnect } from './connect-admission.js';
import { writeStatus } from '../../response-writer.js';

/** Serves a proxy request. */
export async function handleProxy(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const refused = await admitConnect(ctx, registry, def, 'proxy');
  if (refused !== undefined) return writeStatus(ctx, refused);
  const read = await readTarget(ctx, registry, def);
  if (!read.ok) return writeStatus(ctx, read.error);
  const name = ctx.info.name;
  if (def.resource === 'services') return writeStatus(ctx, serviceUnavailable(`no endpoints available for service "${name}"`));
  if (def.resource === 'nodes') return writeStatus(ctx, nodeAgentUnavailable(name, 'proxying'));
  writeStatus(ctx, podAgentUnavailable(read.value, 'proxying'));
}
