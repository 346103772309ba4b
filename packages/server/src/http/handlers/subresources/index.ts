/**
 * The subresources served by code rather than by the generic verb handlers, by subresource name: scale, binding,
 * eviction, token, and the routes a node agent would serve (log, exec, attach, portforward, proxy). `status`,
 * `finalize`, `approval` and `ephemeralcontainers` go through the generic get/update/patch with the resource's
 * subresource strategy.
 */
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { handleBinding } from './binding.js';
import { handleEviction } from './eviction.js';
import { handleLog } from './log.js';
import { handleExec } from './exec.js';
import { handleAttach } from './attach.js';
import { handlePortForward } from './portforward.js';
import { handleProxy } from './proxy.js';
import { handleScale } from './scale.js';
import { tokenRequestHandler, type TokenRequestOptions } from './token.js';

/** A handler of one subresource. */
export type SubresourceHandler = (ctx: RequestContext, registry: Registry, def: ResourceDef) => Promise<void>;

/** Subresource handlers by subresource name. */
export type SubresourceHandlers = ReadonlyMap<string, SubresourceHandler>;

/** What the subresource handlers need from the server. */
export interface SubresourceOptions {
  /** The service account token issuer; without it `serviceaccounts/token` answers 503. */
  readonly tokens?: TokenRequestOptions;
}

/** The built-in subresource handlers. */
export function subresourceHandlers(options: SubresourceOptions = {}): SubresourceHandlers {
  return new Map<string, SubresourceHandler>([
    ['scale', handleScale],
    ['binding', handleBinding],
    ['eviction', handleEviction],
    ['token', tokenRequestHandler(options.tokens)],
    ['log', handleLog],
    ['exec', handleExec],
    ['attach', handleAttach],
    ['portforward', handlePortForward],
    ['proxy', handleProxy],
  ]);
}
