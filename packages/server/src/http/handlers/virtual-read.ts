/**
 * get and list of a read-only resource answered by code each time (kube's componentstatus REST storage): the
 * objects come from the resource's {@link VirtualRead}; a get names one of them (404 NotFound otherwise), a list
 * keeps those its label and field selectors select (only `metadata.name` is a field, as kube's predicate has it).
 */
import { notFound } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { parseSelection, selects } from '../../registry/selection.js';
import type { VirtualRead } from '../../registry/virtual-resource.js';
import { writeObject, writeStatus } from '../response-writer.js';

/** Serves a get or list from `read`. */
export async function handleVirtualRead(ctx: RequestContext, def: ResourceDef, read: VirtualRead): Promise<void> {
  const apiVersion = def.group === '' ? def.version : `${def.group}/${def.version}`;
  if (ctx.info.verb === 'get') {
    const objects = await read.list();
    const found = objects.find((o) => o.metadata?.name === ctx.info.name);
    if (found === undefined) return writeStatus(ctx, notFound({ group: def.group, resource: def.resource }, ctx.info.name));
    return writeObject(ctx, 200, found);
  }
  const selection = parseSelection(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (!selection.ok) return writeStatus(ctx, selection.error);
  const objects = await read.list();
  writeObject(ctx, 200, { kind: def.listKind, apiVersion, metadata: {}, items: objects.filter((o) => selects(def, selection.value, o)) });
}
