/**
 * The outbound client's view of Services, Endpoints and EndpointSlices, read from the registry's watch cache
 * (resourceVersion "0": whatever the cache holds, no storage round trip), for webhook and APIService service
 * references. Like the listers kube-aggregator resolves with, it hands out the cache's objects rather than copies:
 * each object version is decoded once however many requests resolve through it (every proxied request does).
 */
import type { ServiceLookup } from '../outbound/service-resolver.js';
import type { StoredObject } from '../storage/watch-cache/stored-object.js';
import type { Registry } from './registry.js';
import { parseSelection } from './selection.js';

/** Each cached object version decoded once, shared read-only by the resolutions through it. */
const decoded = new WeakMap<StoredObject, unknown>();

function decodedOf(o: StoredObject): unknown {
  let object = decoded.get(o);
  if (object === undefined) {
    object = o.parsed();
    decoded.set(o, object);
  }
  return object;
}

/** A ServiceLookup over the registry. */
export function registryServiceLookup(registry: Registry): ServiceLookup {
  const read = async (resource: string, namespace: string, name: string): Promise<unknown> => {
    const def = registry.lookup('', 'v1', resource);
    if (def === undefined) return undefined;
    const got = await registry.store.getStored(def, namespace, name, '0');
    return got.ok ? decodedOf(got.value) : undefined;
  };
  return {
    service: (namespace, name) => read('services', namespace, name),
    endpoints: (namespace, name) => read('endpoints', namespace, name),
    async endpointSlices(namespace, serviceName) {
      const def = registry.lookup(registry.names.group('discovery'), 'v1', 'endpointslices');
      if (def === undefined) return [];
      const selection = parseSelection(def, `${registry.names.domain('service-name')}=${serviceName}`, null);
      if (!selection.ok) return [];
      const listed = await registry.store.listPage(def, { namespace, selection: selection.value, resourceVersion: '0' });
      return listed.ok ? listed.value.items.map(decodedOf) : [];
    },
  };
}
