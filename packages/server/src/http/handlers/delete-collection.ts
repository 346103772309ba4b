/**
 * deletecollection (DELETE on a collection): every object the selectors select is deleted as a delete would
 * (admission, finalizers); the answer is the list of deleted objects.
 */
import { apiVersionOf, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { parseSelection } from '../../registry/selection.js';
import { readDeleteOptions } from './delete-options.js';
import { requestNamespace } from './request-options.js';

/** Serves a deletecollection. */
export async function handleDeleteCollection(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const selection = parseSelection(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (!selection.ok) return ctx.writeStatus(selection.status);
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return ctx.writeStatus(options.status);
  const listed = await registry.store.list(def, { namespace: requestNamespace(ctx, def), selection: selection.value });
  if (!listed.ok) return ctx.writeStatus(listed.status);
  const deleted: KubeObject[] = [];
  for (const item of listed.value.items) {
    const result = await deleteObject(
      registry, def, item.metadata?.namespace ?? '', item.metadata?.name ?? '', { user: ctx.user, dryRun: options.value.dryRun },
    );
    if (result.ok) {
      const { kind: _k, apiVersion: _a, ...rest } = result.value.object;
      deleted.push(rest);
    } else if (result.status.code !== 404) {
      return ctx.writeStatus(result.status);
    }
  }
  ctx.writeObject(200, {
    kind: def.listKind, apiVersion: apiVersionOf(def.group, def.version), metadata: { resourceVersion: listed.value.metadata.resourceVersion }, items: deleted,
  });
}
