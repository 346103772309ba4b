/**
 * kube's lease endpoint reconciler (`--endpoint-reconciler-type=lease`) with its EndpointsAdapter: the Endpoints
 * `default/kubernetes` list every API server whose lease is live (one subset, addresses sorted, the `https` port),
 * labelled to be left alone by endpoint mirroring, and the EndpointSlice `default/kubernetes` follows them (IPv4,
 * each address ready, the Service's name label). A reconcile refreshes this replica's lease first, then writes
 * only what differs; ports are reconciled when asked (at start and when a replica leaves), addresses always.
 */
import { fail, internalError, ok, type KubeObject, type Names, type Result } from '@svc-apiserver/api';
import { createObject } from '../../registry/operations/create-object.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { MasterLeases } from './master-leases.js';

/** An endpoint port (core/v1 EndpointPort). */
export interface EndpointPort {
  readonly name: string;
  readonly port: number;
  readonly protocol: 'TCP';
}

/** The reconciler of one Service's endpoints. */
export interface EndpointReconciler {
  /** Refreshes `ip`'s lease and makes the Endpoints and EndpointSlice list the live leases. */
  reconcileEndpoints(ip: string, ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<Result<void>>;
  /** Drops `ip`'s lease and its address (a replica shutting down); `false` when it held no lease. */
  removeEndpoints(ip: string, ports: readonly EndpointPort[]): Promise<Result<boolean>>;
}


interface Subset {
  addresses?: { ip: string }[];
  ports?: EndpointPort[];
}

const samePorts = (a: readonly EndpointPort[] | undefined, b: readonly EndpointPort[]): boolean =>
  a !== undefined && a.length === b.length && a.every((p, i) => p.name === b[i]!.name && p.port === b[i]!.port && p.protocol === b[i]!.protocol);

/** The reconciler of the Service `default/<serviceName>`. */
export function endpointReconciler(registry: Registry, names: Names, leases: MasterLeases, serviceName: string): EndpointReconciler {
  const skipMirror = names.domain('skip-mirror', 'endpointslice');
  const serviceNameLabel = names.domain('service-name');
  /** The resources written; undefined when endpoints are not served (`--runtime-config`): nothing to keep then. */
  const defs = (): { endpoints: ResourceDef; slices: ResourceDef | undefined } | undefined => {
    const endpoints = registry.lookup('', 'v1', 'endpoints');
    return endpoints === undefined ? undefined : { endpoints, slices: registry.lookup(names.group('discovery'), 'v1', 'endpointslices') };
  };

  /** kube's EnsureEndpointSliceFromEndpoints. */
  const ensureSlice = async (def: ResourceDef, endpoints: KubeObject): Promise<Result<void>> => {
    const subset = ((endpoints['subsets'] as Subset[] | undefined) ?? [])[0];
    const labels = { [serviceNameLabel]: serviceName };
    const wanted: KubeObject = {
      apiVersion: `${def.group}/v1`, kind: 'EndpointSlice',
      metadata: { name: serviceName, namespace: 'default', labels },
      addressType: 'IPv4',
      endpoints: (subset?.addresses ?? []).map((a) => ({ addresses: [a.ip], conditions: { ready: true } })),
      ports: (subset?.ports ?? []).map((p) => ({ name: p.name, port: p.port, protocol: p.protocol })),
    };
    const got = await registry.store.get(def, 'default', serviceName);
    if (!got.ok) {
      if (got.error.code !== 404) return got;
      const created = await createObject(registry, def, wanted, loopbackContext(registry.names, 'apiserver'));
      return created.ok || created.error.reason === 'AlreadyExists' ? ok(undefined) : created;
    }
    const current = got.value;
    const same = (k: string) => JSON.stringify(current[k] ?? null) === JSON.stringify(wanted[k] ?? null);
    if (current['addressType'] !== 'IPv4') {
      // The address type is immutable: kube deletes and creates the slice again.
      const removed = await deleteObject(registry, def, 'default', serviceName, loopbackContext(registry.names, 'apiserver'));
      if (!removed.ok && removed.error.code !== 404) return removed;
      const created = await createObject(registry, def, wanted, loopbackContext(registry.names, 'apiserver'));
      return created.ok ? ok(undefined) : created;
    }
    if (same('endpoints') && same('ports') && JSON.stringify(current.metadata?.labels ?? {}) === JSON.stringify(labels)) return ok(undefined);
    const updated = await updateObject(registry, def, '', {
      ...current, endpoints: wanted['endpoints'], ports: wanted['ports'], metadata: { ...current.metadata, labels },
    }, current, loopbackContext(registry.names, 'apiserver'));
    return updated.ok ? ok(undefined) : fail(updated.error);
  };

  /** kube's doReconcile: the Endpoints from the live leases, then the slice from the Endpoints. */
  const doReconcile = async (ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<Result<void>> => {
    const found = defs();
    if (found === undefined) return ok(undefined);
    const { endpoints: def, slices } = found;
    const got = await registry.store.get(def, 'default', serviceName);
    if (!got.ok && got.error.code !== 404) return got;
    const masterIps = await leases.listLeases();
    // This replica just refreshed its own lease: none at all means the store answered wrongly; keep what is there.
    if (masterIps.length === 0) return fail(internalError('no master IPs were listed in storage, refusing to erase all endpoints for the kubernetes service'));
    const current: KubeObject = got.ok ? structuredClone(got.value) : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: serviceName, namespace: 'default' } };
    const labels = current.metadata?.labels ?? {};
    const mirrorChanged = labels[skipMirror] !== 'true';
    const subsets = (current['subsets'] as Subset[] | undefined) ?? [];
    const formatCorrect = subsets.length === 1;
    const addresses = formatCorrect ? (subsets[0]!.addresses ?? []).map((a) => a.ip) : [];
    const ipsCorrect = formatCorrect && addresses.length === masterIps.length && new Set(addresses).size === addresses.length
      && addresses.every((ip) => masterIps.includes(ip));
    const portsCorrect = !reconcilePorts || (formatCorrect && samePorts(subsets[0]!.ports, ports));
    if (got.ok && !mirrorChanged && formatCorrect && ipsCorrect && portsCorrect) {
      return slices === undefined ? ok(undefined) : ensureSlice(slices, current);
    }
    const subset: Subset = formatCorrect ? { ...subsets[0]! } : { addresses: [], ports: [...ports] };
    if (!formatCorrect || !ipsCorrect) subset.addresses = masterIps.map((ip) => ({ ip }));
    if (!portsCorrect) subset.ports = [...ports];
    const next: KubeObject = { ...current, metadata: { ...current.metadata, labels: { ...labels, [skipMirror]: 'true' } }, subsets: [subset] };
    const written = got.ok ? await updateObject(registry, def, '', next, got.value, loopbackContext(registry.names, 'apiserver')) : await createObject(registry, def, next, loopbackContext(registry.names, 'apiserver'));
    if (!written.ok) return written.error.reason === 'AlreadyExists' ? ok(undefined) : fail(written.error);
    return slices === undefined ? ok(undefined) : ensureSlice(slices, written.value);
  };

  return {
    async reconcileEndpoints(ip, ports, reconcilePorts) {
      await leases.updateLease(ip);
      return doReconcile(ports, reconcilePorts);
    },
    async removeEndpoints(ip, ports) {
      const held = await leases.removeLease(ip);
      if (!held) return ok(false);
      const done = await doReconcile(ports, true);
      return done.ok ? ok(true) : done;
    },
  };
}
