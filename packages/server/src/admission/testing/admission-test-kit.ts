/**
 * Test support for admission plugins: a registry over the memory backend whose chain holds only the plugins named
 * (with their configurations), requests through the resource handler as a chosen user, and reads of what was
 * stored. Every plugin's tests use it, so what they check is what a client of the server gets.
 */
import { namesFor, type KubeObject, type Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import { fakeContext, type FakeRequest, type FakeResponse } from '../../testing/fake-context.js';
import { resourceHandler } from '../../http/handlers/resource-handler.js';
import { createRegistry, type Registry } from '../../registry/registry.js';
import { loadCatalog } from '../../schema/load-catalog.js';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import { createAdmissionChain, type AdmissionChain } from '../chain.js';
import { admissionMetrics, type AdmissionMetrics } from '../admission-metrics.js';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { defaultAdmissionFlags, type AdmissionFlags } from '../plugin.js';
import { pluginFactories } from '../plugins/index.js';
import { madeName } from '../plugin-configuration.js';

/** An administrator for setting up objects. */
export const testAdmin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

/** What a rig is built with. */
export interface RigOptions {
  /** The plugins to run (every other plugin is disabled). */
  readonly plugins: readonly string[];
  /** Plugin configurations by plugin name, as the admission configuration file would give them. */
  readonly configuration?: Readonly<Record<string, unknown>>;
  readonly flags?: AdmissionFlags;
  /** Namespaces created first (default: `default`). */
  readonly namespaces?: readonly string[];
  readonly names?: Names;
  readonly authorizer?: Authorizer;
}

/** A registry with a chosen chain. */
export interface AdmissionRig {
  readonly registry: Registry;
  readonly chain: AdmissionChain;
  readonly names: Names;
  readonly metrics: AdmissionMetrics;
  /** One request through the resource handler (as `testAdmin` unless `user` is given). */
  call(req: FakeRequest): Promise<FakeResponse>;
  /** The stored object, or undefined. */
  get(resource: string, namespace: string, name: string, group?: string, version?: string): Promise<KubeObject | undefined>;
  close(): void;
}

/** Names of every plugin this server knows. */
export function knownPluginNames(names: Names): string[] {
  const init = { configuration: () => undefined, flags: defaultAdmissionFlags, metrics: admissionMetrics(createMetricsRegistry()) };
  return pluginFactories.map((make) => madeName(make(names, init)));
}

/** Builds a rig; throws when the chain cannot be built (a test's own mistake). */
export async function admissionRig(options: RigOptions): Promise<AdmissionRig> {
  const names = options.names ?? namesFor('svc');
  const metrics = admissionMetrics(createMetricsRegistry());
  const configuration = options.configuration ?? {};
  const chain = createAdmissionChain({
    names, metrics,
    enable: [...options.plugins],
    disable: knownPluginNames(names).filter((n) => !options.plugins.includes(n)),
    configuration: { path: 'test', configuration: (name) => configuration[name] },
    flags: options.flags ?? defaultAdmissionFlags,
  });
  if (!chain.ok) throw new Error(chain.error.message);
  const registry = createRegistry({
    backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: chain.value,
    ...(options.authorizer === undefined ? {} : { authorizer: () => options.authorizer }),
  });
  const handle = resourceHandler(registry);
  const call = async (req: FakeRequest): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext({ user: testAdmin, names, ...req });
    await handle(ctx);
    return response;
  };
  for (const ns of options.namespaces ?? ['default']) {
    const res = await call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: ns } } });
    if (res.code !== 201) throw new Error(`namespace ${ns}: ${JSON.stringify(res.body)}`);
  }
  return {
    registry, chain: chain.value, names, metrics, call,
    async get(resource, namespace, name, group = '', version = 'v1') {
      const def = registry.lookup(group, version, resource);
      if (def === undefined) return undefined;
      const got = await registry.store.get(def, namespace, name);
      return got.ok ? got.value : undefined;
    },
    close() {
      chain.value.close();
      registry.store.close();
    },
  };
}
