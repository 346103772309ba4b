/**
 * The resource handler: finds the served resource of a request, checks that it (or its subresource) supports the
 * verb, and dispatches to the verb's handler. 404 for an unknown group, version, resource or subresource (with
 * kube-apiserver's generic message), 405 for a verb the resource does not support.
 */
import { failure, methodNotAllowed, type Status } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { handleCreate } from './create.js';
import { handleDeleteCollection } from './delete-collection.js';
import { handleDelete } from './delete.js';
import { handleGet } from './get.js';
import { handleList } from './list.js';
import { handlePatch } from './patch.js';
import { handleUpdate } from './update.js';
import { handleWatch } from './watch.js';
import { recordDeprecatedRequest } from '../../registry/deprecation.js';
import { virtualKey, type VirtualReads, type VirtualResources } from '../../registry/virtual-resource.js';
import { handleVirtualCreate } from './virtual-create.js';
import { handleVirtualRead } from './virtual-read.js';
import { subresourceStrategy } from '../../registry/operations/prepare.js';
import { subresourceHandlers, type SubresourceHandlers } from './subresources/index.js';
import { alwaysAllow } from '../../auth/authz/always-allow.js';
import type { Authorizer } from '../../request/authorizer.js';
import { addAuditAnnotation } from '../request-record.js';
import { addWarning, writeStatus } from '../response-writer.js';

type VerbHandler = (ctx: RequestContext, registry: Registry, def: ResourceDef) => Promise<void>;

const handlers: Readonly<Record<string, VerbHandler>> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** Verbs that act on one named object. */
const namedVerbs: ReadonlySet<string> = new Set(['get', 'update', 'patch', 'delete']);
/** Verbs that act on a collection. */
const collectionVerbs: ReadonlySet<string> = new Set(['list', 'create', 'deletecollection']);
/**
 * The verbs served on the all-namespaces path of a namespaced resource (`/api/v1/pods`, `/api/v1/watch/pods`):
 * kube-apiserver's installer registers only LIST and WATCHLIST there (create and deletecollection live on the
 * namespaced path), and its CRD handler serves only these across namespaces (possiblyAcrossAllNamespacesVerbs).
 */
const acrossNamespacesVerbs: ReadonlySet<string> = new Set(['list', 'watch']);

/** 404 for paths that name nothing served. */
export function resourceNotFound() {
  return failure('NotFound', 'the server could not find the requested resource', {});
}

/**
 * The answer to a request kube-apiserver does not route: a watch path (`/watch/...`) of a built-in resource with
 * another method than GET (its routes are GET only: 405; kube's CRD handler serves the watch whatever the method),
 * and on the all-namespaces path of a namespaced resource anything but a list or
 * watch of the collection. For a built-in resource kube routes only the collection of a listable resource there:
 * its other methods are 405 (go-restful knows the path, not the method), a named path or an unlistable resource
 * 404 (no route). A custom resource answers 404: kube's CRD handler hands a request whose scope does not match the
 * CRD's to its not-found delegate (which writes Go's plain `404 page not found`; under `/apis` this server answers
 * every 404 with a Status).
 */
function refusedAcrossNamespaces(ctx: RequestContext, def: ResourceDef): Status | undefined {
  const info = ctx.info;
  if (info.verb === 'watch' && ctx.method !== 'GET' && ctx.method !== 'HEAD' && def.custom === undefined) return methodNotAllowed();
  if (!def.namespaced || info.namespace !== '') return undefined;
  // A list's or a watch's name from a `metadata.name` field selector leaves the path the collection's.
  const named = info.verb === 'watch' ? info.parts.length > 1 : info.verb !== 'list' && info.name !== '';
  const routed = !named && def.verbs.includes('list');
  if (routed && acrossNamespacesVerbs.has(info.verb)) return undefined;
  return routed && def.custom === undefined ? methodNotAllowed() : resourceNotFound();
}

/**
 * The handler of every resource request. `authorizer` is the one the authorization filter uses: handlers ask it
 * about a second verb a request turns out to need (an apply that creates needs `create`). The default allows
 * everything, as the server's authorizer does until RBAC; the server passes its own. `reads` are the read-only
 * resources answered by code (ComponentStatus).
 */
export function resourceHandler(
  registry: Registry, virtual: VirtualResources = new Map(), subresources: SubresourceHandlers = subresourceHandlers(),
  authorizer: Authorizer = alwaysAllow(), reads: VirtualReads = new Map(),
): (ctx: RequestContext) => Promise<void> {
  const verbHandlers: Readonly<Record<string, VerbHandler>> = {
    ...handlers,
    patch: (ctx, registry, def) => handlePatch(ctx, registry, def, authorizer),
  };
  return async (ctx) => {
    const info = ctx.info;
    const def = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (def === undefined) return writeStatus(ctx, resourceNotFound());
    // A namespaced path to a cluster-scoped resource names nothing (the namespaces resource carries its own name there).
    if (!def.namespaced && info.namespace !== '' && !(def.group === '' && def.resource === 'namespaces')) {
      return writeStatus(ctx, resourceNotFound());
    }
    const across = refusedAcrossNamespaces(ctx, def);
    if (across !== undefined) return writeStatus(ctx, across);
    // Deprecated versions: Warning header, gauge and audit annotations (registry/deprecation.ts).
    const deprecation = recordDeprecatedRequest(registry.names, def, info.subresource, (text) => addWarning(ctx, text));
    for (const [key, value] of Object.entries(deprecation?.auditAnnotations ?? {})) addAuditAnnotation(ctx.record, key, value);
    let verbs = def.verbs;
    if (info.subresource !== '') {
      const sub = def.subresources.find((s) => s.name === info.subresource);
      if (sub === undefined || info.name === '') return writeStatus(ctx, resourceNotFound());
      verbs = sub.verbs;
    }
    const handler = verbHandlers[info.verb];
    if (handler === undefined || !verbs.includes(info.verb)) return writeStatus(ctx, methodNotAllowed());
    // Subresources served by code (scale, binding, eviction, token, the node-agent routes) and the core
    // `bindings` resource, which is pods/binding addressed by the Binding's own name.
    const special = info.subresource !== '' ? subresources.get(info.subresource)
      : def.groupKey === '' && def.resource === 'bindings' ? subresources.get('binding') : undefined;
    if (special !== undefined) return special(ctx, registry, def);
    // kube-apiserver routes PUT/PATCH/DELETE-one only on named paths and POST only on collections (and on
    // subresources such as pods/eviction).
    if (namedVerbs.has(info.verb) && info.name === '') return writeStatus(ctx, methodNotAllowed());
    // (a list's name comes from a `metadata.name` field selector, never from the path)
    if (collectionVerbs.has(info.verb) && info.verb !== 'list' && info.name !== '' && info.subresource === '') return writeStatus(ctx, methodNotAllowed());
    if (info.subresource !== '' && (info.verb === 'update' || info.verb === 'patch')
      && subresourceStrategy(def, info.subresource) === undefined) {
      return writeStatus(ctx, methodNotAllowed());
    }
    // Create-only resources answered without storage (TokenReview, SelfSubjectReview).
    const answer = info.verb === 'create' ? virtual.get(virtualKey(def.groupKey, def.version, def.resource)) : undefined;
    if (answer !== undefined) return handleVirtualCreate(ctx, registry, def, answer);
    // Read-only resources answered by code each time (ComponentStatus).
    const read = info.verb === 'get' || info.verb === 'list' ? reads.get(virtualKey(def.groupKey, def.version, def.resource)) : undefined;
    if (read !== undefined) return handleVirtualRead(ctx, def, read);
    await handler(ctx, registry, def);
  };
}
