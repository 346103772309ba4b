/**
 * `pods/attach` (kube's AttachREST): the pod must exist and the container be chosen; then the node-agent Status
 * (node-agent.ts), as no node agent holds the container's streams.
 */
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { checkContainer, podAgentUnavailable, readTarget } from './node-agent.js';
import { admitConnect } from './connect-admission.js';
import { writeStatus } from '../../response-writer.js';

/** Serves an attach request. */
export async function handleAttach(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const refused = await admitConnect(ctx, registry, def, 'attach');
  if (refused !== undefined) return writeStatus(ctx, refused);
  const read = await readTarget(ctx, registry, def);
  if (!read.ok) return writeStatus(ctx, read.error);
  const bad = checkContainer(read.value, ctx.query.get('container'));
  if (bad !== undefined) return writeStatus(ctx, bad);
  writeStatus(ctx, podAgentUnavailable(read.value, 'attach'));
}
