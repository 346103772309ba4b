/**
 * `pods/portforward` (kube's PortForwardREST): the pod must exist; then the node-agent Status (node-agent.ts), as
 * no node agent forwards the ports.
 */
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { podAgentUnavailable, readTarget } from './node-agent.js';
import { admitConnect } from './connect-admission.js';
import { writeStatus } from '../../response-writer.js';

/** Serves a port-forward request. */
export async function handlePortForward(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const refused = await admitConnect(ctx, registry, def, 'portforward');
  if (refused !== undefined) return writeStatus(ctx, refused);
  const read = await readTarget(ctx, registry, def);
  if (!read.ok) return writeStatus(ctx, read.error);
  writeStatus(ctx, podAgentUnavailable(read.value, 'port forwarding'));
}
