/**
 * The APIService availability controller (kube-aggregator's AvailableConditionController): Local APIServices are
 * Available (Local); one with a service reference is Available (Passed) once its Service exists and listens on the
 * port, its Endpoints have an address for that port, and its server answers the group-version's discovery
 * document (200 or 403) to the front-proxy identity `system:kube-aggregator` in `system:masters` — else False with
 * kube's reason and message (ServiceNotFound, ServicePortError, MissingEndpoints, FailedDiscoveryCheck). Checked
 * when an APIService, Service or Endpoints changes and every interval; the discovery document and the OpenAPI v3
 * (of the group-version) and v2 (of the server) documents fetched are kept for the aggregator's discovery and
 * OpenAPI.
 */
import { apiServiceSpec, isLocal, type ApiService, type ApiServiceCondition } from './apiservice.js';
import type { FrontProxy } from './front-proxy.js';
import { apiServiceTarget, identityHeaders } from './proxy.js';
import { resourcesOfList, type RemoteApis } from './remote-apis.js';
import { httpsRequest } from '../outbound/https-request.js';
import type { ServiceResolver } from '../outbound/service-resolver.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../controllers/kit/controller.js';
import { createWorkQueue } from '../controllers/kit/work-queue.js';
import { apiServiceResource, sameAvailability, writeAvailability } from './apiservice-conditions.js';

/** What the controller needs besides the context. */
export interface AvailabilityOptions {
  readonly remote: RemoteApis;
  readonly frontProxy: FrontProxy;
  readonly services: ServiceResolver;
  /** How often every APIService is checked again (kube: 30 s). */
  readonly intervalMs?: number;
  /** Timeout of one discovery check (kube: 5 s). */
  readonly discoveryTimeoutMs?: number;
}

type Fields = Record<string, unknown>;
const fields = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});
const items = (v: unknown): Fields[] => (Array.isArray(v) ? v.map(fields) : []);

/** Starts the controller. */
export function startApiServiceAvailability(context: ControllerContext, options: AvailabilityOptions): Controller {
  const { registry } = context;
  const def = apiServiceResource(registry);
  const servicesDef = registry.lookup('', 'v1', 'services');
  const endpointsDef = registry.lookup('', 'v1', 'endpoints');
  const intervalMs = options.intervalMs ?? 30_000;
  const timeoutMs = options.discoveryTimeoutMs ?? 5000;
  return runController('apiservice-availability', context, (informers) => {
    if (def === undefined || servicesDef === undefined || endpointsDef === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const services = informers.informerFor(servicesDef);
    const endpoints = informers.informerFor(endpointsDef);
    const queue = createWorkQueue();

    /** The condition an APIService with a service reference should have; records its documents when available. */
    const check = async (a: ApiService): Promise<ApiServiceCondition> => {
      const spec = apiServiceSpec(a);
      const ref = spec.service ?? {};
      const ns = ref.namespace ?? '';
      const name = ref.name ?? '';
      const port = ref.port ?? 443;
      const unavailable = (reason: string, message: string): ApiServiceCondition => ({ type: 'Available', status: 'False', reason, message });
      const service = services.get(ns, name);
      if (service === undefined) return unavailable('ServiceNotFound', `service/${name} in "${ns}" is not present`);
      const svcSpec = fields(service['spec']);
      let portName = '';
      if (svcSpec['type'] !== 'ExternalName') {
        const servicePort = items(svcSpec['ports']).find((p) => p['port'] === port);
        if (servicePort === undefined) return unavailable('ServicePortError', `service/${name} in "${ns}" is not listening on port ${port}`);
        portName = typeof servicePort['name'] === 'string' ? servicePort['name'] : '';
        const ep = endpoints.get(ns, name);
        const ready = items(ep?.['subsets']).some((s) => items(s['addresses']).length > 0 && items(s['ports']).some((p) => (p['name'] ?? '') === portName));
        if (!ready) return unavailable('MissingEndpoints', `endpoints for service/${name} in "${ns}" have no addresses with port name "${portName}"`);
      }
      const address = await options.services.resolve(ns, name, port);
      if (!address.ok) return unavailable('MissingEndpoints', address.error);
      const host = address.value.host.includes(':') ? `[${address.value.host}]` : address.value.host;
      const base = `https://${host}:${address.value.port}`;
      const path = `/apis/${spec.group ?? ''}/${spec.version ?? ''}`;
      const target = {
        ...apiServiceTarget(a, options.frontProxy), timeoutMs, headers: Object.fromEntries(Object.entries(identityHeaders({ username: 'system:kube-aggregator', groups: ['system:masters'] }))
          .map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])) as Record<string, string>,
      };
      const url = `${base}${path}`;
      const res = await httpsRequest(url, 'GET', { ...target, headers: { ...target.headers, accept: 'application/json' } });
      if (!res.ok) return unavailable('FailedDiscoveryCheck', `failing or missing response from ${url}: ${res.error}`);
      if (res.value.status !== 200 && res.value.status !== 403) {
        return unavailable('FailedDiscoveryCheck', `failing or missing response from ${url}: bad status from ${url}: ${res.value.status}`);
      }
      let list: unknown;
      try {
        list = JSON.parse(res.value.body.toString('utf8'));
      } catch {
        list = {};
      }
      // An OpenAPI document the server does not serve (or not as JSON) is left out; the APIService is available still.
      const fetchJson = async (url: string): Promise<string | undefined> => {
        const res = await httpsRequest(url, 'GET', { ...target, headers: { ...target.headers, accept: 'application/json' } });
        return res.ok && res.value.status === 200 ? res.value.body.toString('utf8') : undefined;
      };
      const [openapiV3, openapiV2] = await Promise.all([fetchJson(`${base}/openapi/v3${path}`), fetchJson(`${base}/openapi/v2`)]);
      options.remote.setDocuments(spec.group ?? '', spec.version ?? '', {
        resources: resourcesOfList(spec.group ?? '', spec.version ?? '', list, registry.names),
        ...(openapiV3 !== undefined ? { openapiV3 } : {}),
        ...(openapiV2 !== undefined ? { openapiV2 } : {}),
      });
      return { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' };
    };

    const sync = async (key: string): Promise<SyncResult> => {
      const a = informer.get('', key) as ApiService | undefined;
      if (a === undefined) return done;
      const wanted: ApiServiceCondition = isLocal(a)
        ? { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' }
        : await check(a);
      if (sameAvailability(a, wanted)) return done;
      const written = await writeAvailability(registry, def, a, wanted);
      if (!written.ok && written.error.code !== 404) return retry(`updating the status of APIService ${key}: ${written.error.message ?? 'failed'}`);
      return done;
    };

    const enqueueRemote = (): void => {
      for (const a of informer.list() as ApiService[]) if (!isLocal(a)) queue.add(a.metadata?.name ?? '');
    };
    const timer = setInterval(enqueueRemote, intervalMs);
    timer.unref();
    return {
      handlers: [
        {
          informer,
          listener(change, object) {
            const spec = apiServiceSpec(object as ApiService);
            // A removed APIService's documents go with it.
            if (change === 'DELETED') options.remote.setDocuments(spec.group ?? '', spec.version ?? '', undefined);
            queue.add(object.metadata?.name ?? '');
          },
        },
        { informer: services, listener: enqueueRemote },
        { informer: endpoints, listener: enqueueRemote },
      ],
      loops: [{ queue, sync, workers: 5 }],
      onStop: () => clearInterval(timer),
    };
  });
}
