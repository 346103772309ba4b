/**
 * `pods/exec` (kube's ExecREST): a command is required (`you must specify at least 1 command`), the pod must exist
 * and the container be chosen; then the node-agent Status (node-agent.ts), as no node agent runs the command.
 */
import { badRequest } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { checkContainer, podAgentUnavailable, readTarget } from './node-agent.js';
import { admitConnect } from './connect-admission.js';
import { writeStatus } from '../../response-writer.js';

/** Serves an exec request. */
export async function handleExec(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const refused = await admitConnect(ctx, registry, def, 'exec');
  if (refused !== undefined) return writeStatus(ctx, refused);
  const read = await readTarget(ctx, registry, def);
  if (!read.ok) return writeStatus(ctx, read.error);
  if (ctx.query.getAll('command').length === 0) return writeStatus(ctx, badRequest('you must specify at least 1 command'));
  const bad = checkContainer(read.value, ctx.query.get('container'));
  if (bad !== undefined) return writeStatus(ctx, bad);
  writeStatus(ctx, podAgentUnavailable(read.value, 'exec'));
}
