/**
 * The aggregator in front of the server's own handlers (kube-aggregator's handler chain): a request under
 * `/apis/<group>/<version>` whose APIService names a service is proxied to it; every other request goes on to the
 * server's handlers. Discovery lists the remote groups; OpenAPI v3 serves their documents as last fetched, and the
 * v2 documents of their servers are merged into the served v2 document.
 */
import { createHash } from 'node:crypto';
import type { RequestContext } from '../http/context.js';
import type { ServedGroup } from '../http/routes/discovery.js';
import { isLocal } from './apiservice.js';
import { proxyToApiService, type ProxyOptions } from './proxy.js';
import type { RemoteApis } from './remote-apis.js';

/** The aggregator's handler and what it adds to discovery and OpenAPI. */
export interface Aggregator {
  /** Proxies the request when an extension API server serves its group-version; false to let the server serve it. */
  handle(ctx: RequestContext): Promise<boolean>;
  remoteGroups(): readonly ServedGroup[];
  /** OpenAPI v3 documents of available remote group-versions, by `apis/<group>/<version>`. */
  openapiV3(): ReadonlyMap<string, { json: string; hash: string }>;
  /**
   * OpenAPI v2 documents of the servers of available remote group-versions, in the APIServices' priority order,
   * each once (a server serving several group-versions answers one document).
   */
  openapiV2(): readonly { json: string; hash: string }[];
}

/**
 * The group and version of a path under `/apis/<group>/<version>` (empty segments skipped, as kube's path split
 * does), or undefined. Every request passes here: only its first three segments are cut out of the path.
 */
function apisGroupVersion(path: string): [string, string] | undefined {
  const segments: string[] = [];
  let at = 0;
  while (segments.length < 3 && at < path.length) {
    let end = path.indexOf('/', at);
    if (end < 0) end = path.length;
    if (end > at) {
      const segment = path.slice(at, end);
      if (segments.length === 0 && segment !== 'apis') return undefined;
      segments.push(segment);
    }
    at = end + 1;
  }
  return segments.length === 3 ? [segments[1]!, segments[2]!] : undefined;
}

/** Builds the aggregator over the APIServices. */
export function createAggregator(remote: RemoteApis, options: ProxyOptions): Aggregator {
  const hashes = new Map<string, { json: string; hash: string }>();
  /** A document with its hash, computed once per distinct text. */
  const hashed = (json: string): { json: string; hash: string } => {
    let known = hashes.get(json);
    if (known === undefined) {
      known = { json, hash: createHash('sha512').update(json).digest('hex').toUpperCase() };
      if (hashes.size > 256) hashes.clear();
      hashes.set(json, known);
    }
    return known;
  };
  return {
    async handle(ctx) {
      const groupVersion = apisGroupVersion(ctx.path);
      if (groupVersion === undefined) return false;
      const apiService = remote.lookup(groupVersion[0], groupVersion[1]);
      if (apiService === undefined || isLocal(apiService)) return false;
      await proxyToApiService(ctx, apiService, options);
      return true;
    },
    remoteGroups: () => remote.groups(),
    openapiV3() {
      const out = new Map<string, { json: string; hash: string }>();
      for (const g of remote.groups()) {
        for (const v of g.versions) {
          const json = remote.documents(g.name, v.version)?.openapiV3;
          if (json === undefined || v.resources.length === 0) continue;
          out.set(`apis/${g.name}/${v.version}`, hashed(json));
        }
      }
      return out;
    },
    openapiV2() {
      const out = new Map<string, { json: string; hash: string }>();
      for (const g of remote.groups()) {
        for (const v of g.versions) {
          // kube merges the specs of available APIServices only.
          if (v.stale === true) continue;
          const json = remote.documents(g.name, v.version)?.openapiV2;
          if (json !== undefined && !out.has(json)) out.set(json, hashed(json));
        }
      }
      return [...out.values()];
    },
  };
}
