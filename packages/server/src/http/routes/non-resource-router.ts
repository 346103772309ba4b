/**
 * The non-resource routes: `/version`, `/metrics`, discovery, OpenAPI and health. Unknown paths are 404 as kube-apiserver
 * answers them (a Status under `/api` and `/apis`, `404 page not found` elsewhere); a known path with a method
 * other than GET or HEAD is 405.
 */
import { methodNotAllowed, notAcceptable, type Names } from '@svc-apiserver/api';
import type { ApiResource } from '../../schema/catalog.js';
import type { HealthEndpoint } from '../../health/health-endpoint.js';
import type { RequestContext } from '../context.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, groupServed, type ServedGroup } from './discovery.js';
import { aggregatedDiscoveryMediaType, apiGroupDiscoveryList, discoveryFormat } from './aggregated-discovery.js';
import { serveOpenApiV2, serveOpenApiV3, type OpenApiSource } from './openapi.js';
import { versionInfo } from './version.js';
import { writeNotFound } from './not-found.js';
import { issuerDiscoveryDocument, serveIssuerDiscovery } from './service-account-issuer-discovery.js';
import type { IssuerDiscovery } from '../../auth/serviceaccount/issuer-discovery.js';
import type { MetricsRegistry } from '../../metrics/metrics-registry.js';
import { serveMetrics } from './metrics.js';
import { writeBytes, writeObject, writeStatus, writeText } from '../response-writer.js';

/** What the router needs. */
export interface NonResourceRouterOptions {
  readonly names: Names;
  /** The served resources, read on every discovery request (CRDs will change the set at run time). */
  readonly resources: () => readonly ApiResource[];
  readonly openapi?: OpenApiSource;
  readonly health: readonly HealthEndpoint[];
  /** `host:port` clients reach the server at (APIVersions.serverAddressByClientCIDRs). */
  readonly serverAddress: () => string;
  /** The service account issuer discovery documents, when served. */
  readonly issuerDiscovery?: () => IssuerDiscovery | undefined;
  /**
   * Groups served by extension API servers (the aggregator's APIServices), listed after the server's own; a
   * version of which nothing is known has no resources and is left out of aggregated discovery, one whose server
   * is unavailable is marked stale there.
   */
  readonly remoteGroups?: () => readonly ServedGroup[];
  /** The metrics served at `/metrics`; none when undefined. */
  readonly metrics?: MetricsRegistry;
}


/** Builds the router; it answers every request it is given. */
export function nonResourceRouter(options: NonResourceRouterOptions): (ctx: RequestContext) => Promise<void> {
  const { names } = options;
  const healthByName = new Map(options.health.map((h) => [h.name, h]));

  const writeDiscovery = (ctx: RequestContext, plain: () => unknown, aggregated?: () => unknown): void => {
    const format = discoveryFormat(ctx.headers.accept, names);
    if (format === 'aggregated' && aggregated) {
      writeBytes(ctx, 200, aggregatedDiscoveryMediaType(names), JSON.stringify(aggregated()) + '\n', { Vary: 'Accept' });
      return;
    }
    if (format === 'none' && !aggregated) {
      writeStatus(ctx, notAcceptable(['application/json', 'application/yaml']));
      return;
    }
    writeObject(ctx, 200, plain());
  };

  const route = async (ctx: RequestContext, parts: readonly string[]): Promise<boolean> => {
    const [first, second, third, ...rest] = parts;
    const served = (): ServedGroup[] => [...groupServed(options.resources()), ...(options.remoteGroups?.() ?? [])];
    const withResources = (groups: readonly ServedGroup[]): ServedGroup[] => groups
      .map((g) => ({ ...g, versions: g.versions.filter((v) => v.resources.length > 0) }))
      .filter((g) => g.versions.length > 0);
    if (first === 'version' && parts.length === 1) {
      writeObject(ctx, 200, versionInfo(names));
      return true;
    }
    if (first === 'metrics' && parts.length === 1 && options.metrics !== undefined) {
      await serveMetrics(ctx, options.metrics);
      return true;
    }
    if (first === 'api') {
      if (parts.length === 1) {
        writeDiscovery(ctx, () => apiVersions(served(), options.serverAddress()),
          () => apiGroupDiscoveryList(served().filter((g) => g.name === ''), names));
        return true;
      }
      if (parts.length === 2) {
        const gv = served().find((g) => g.name === '')?.versions.find((v) => v.version === second);
        if (!gv) return false;
        writeDiscovery(ctx, () => apiResourceList(gv));
        return true;
      }
      return false;
    }
    if (first === 'apis') {
      if (parts.length === 1) {
        writeDiscovery(ctx, () => apiGroupList(served()), () => apiGroupDiscoveryList(withResources(served().filter((g) => g.name !== '')), names));
        return true;
      }
      const group = second === '' ? undefined : served().find((g) => g.name !== '' && g.name === second);
      if (!group) return false;
      if (parts.length === 2) {
        writeDiscovery(ctx, () => ({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) }));
        return true;
      }
      if (parts.length === 3) {
        const gv = group.versions.find((v) => v.version === third);
        if (!gv) return false;
        writeDiscovery(ctx, () => apiResourceList(gv));
        return true;
      }
      return false;
    }
    if (first === 'openapi' && options.openapi) {
      if (second === 'v2' && parts.length === 2) {
        await serveOpenApiV2(ctx, options.openapi);
        return true;
      }
      if (second === 'v3') {
        serveOpenApiV3(ctx, options.openapi, parts.slice(2).join('/'));
        return true;
      }
      return false;
    }
    const discoveryDocument = issuerDiscoveryDocument(parts);
    const discovery = discoveryDocument === undefined ? undefined : options.issuerDiscovery?.();
    if (discoveryDocument !== undefined && discovery !== undefined) {
      serveIssuerDiscovery(ctx, discovery, discoveryDocument);
      return true;
    }
    const health = first === undefined ? undefined : healthByName.get(first);
    if (health) {
      if (parts.length === 1) {
        const r = await health.all(ctx.query);
        writeText(ctx, r.code, r.body);
        return true;
      }
      // Check names may contain slashes (poststarthook/<name>).
      const r = await health.one([second, third, ...rest].filter((p) => p !== undefined).join('/'));
      if (!r) return false;
      writeText(ctx, r.code, r.body);
      return true;
    }
    return false;
  };

  return async (ctx) => {
    const parts = ctx.info.parts;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      // A path that exists for GET answers 405 to other methods; anything else is 404.
      if (knownPath(parts, options)) writeStatus(ctx, methodNotAllowed());
      else writeNotFound(ctx);
      return;
    }
    if (!(await route(ctx, parts))) writeNotFound(ctx);
  };
}

/** True when a GET of this path would be served (used to tell 405 from 404). */
function knownPath(parts: readonly string[], options: NonResourceRouterOptions): boolean {
  const [first] = parts;
  if (first === 'version') return parts.length === 1;
  if (first === 'metrics') return parts.length === 1 && options.metrics !== undefined;
  if (first === 'api' || first === 'apis') return parts.length <= 3;
  if (first === 'openapi') return options.openapi !== undefined && (parts[1] === 'v2' || parts[1] === 'v3');
  if (issuerDiscoveryDocument(parts) !== undefined) return options.issuerDiscovery?.() !== undefined;
  return options.health.some((h) => h.name === first);
}
