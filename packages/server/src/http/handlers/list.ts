/**
 * list (GET on a collection): label and field selectors, `limit` + `continue` pages of one snapshot,
 * `resourceVersion` / `resourceVersionMatch` per document 1.
 */
import { badRequest } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { parseSelection } from '../../registry/selection.js';
import { requestNamespace } from './request-options.js';

/** Serves a list. */
export async function handleList(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const selection = parseSelection(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (!selection.ok) return ctx.writeStatus(selection.status);
  const limitText = ctx.query.get('limit') ?? '';
  if (limitText !== '' && !/^-?\d+$/.test(limitText)) return ctx.writeStatus(badRequest(`invalid limit: ${JSON.stringify(limitText)}`));
  const q = ctx.query;
  const list = await registry.store.list(def, {
    namespace: requestNamespace(ctx, def),
    selection: selection.value,
    limit: limitText === '' ? 0 : Number(limitText),
    ...(q.get('continue') ? { continue: q.get('continue')! } : {}),
    ...(q.get('resourceVersion') !== null ? { resourceVersion: q.get('resourceVersion')! } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch')! } : {}),
  });
  if (!list.ok) return ctx.writeStatus(list.status);
  ctx.writeObject(200, list.value);
}
