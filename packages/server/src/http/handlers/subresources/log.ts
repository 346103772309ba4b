/**
 * `pods/log` (kube's LogREST): the pod must exist and the container be chosen as kube requires; the logs live on
 * a node agent this server does not run, so the answer is the node-agent Status (node-agent.ts).
 */
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { checkContainer, podAgentUnavailable, readTarget } from './node-agent.js';
import { writeStatus } from '../../response-writer.js';

/** Serves a log request. */
export async function handleLog(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const read = await readTarget(ctx, registry, def);
  if (!read.ok) return writeStatus(ctx, read.error);
  const bad = checkContainer(read.value, ctx.query.get('container'));
  if (bad !== undefined) return writeStatus(ctx, bad);
  writeStatus(ctx, podAgentUnavailable(read.value, 'container logs'));
}
