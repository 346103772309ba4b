/**
 * A registry over the memory backend and the real catalog, and a way to call the resource handler with a fake
 * request, for tests of handlers and controllers.
 */
import { namesFor, type Names } from '@svc-apiserver/api';
import { createAdmissionChain } from '../admission/chain.js';
import { identityAdmissionPlugins } from '../admission/plugins/identity-plugins.js';
import { createRegistry, type Registry } from '../registry/registry.js';
import type { StoreOptions } from '../registry/store.js';
import { loadCatalog } from '../schema/load-catalog.js';
import type { Backend } from '../storage/backend.js';
import { openMemoryBackend } from '../storage/memory/memory-backend.js';
import { fakeContext, type FakeRequest, type FakeResponse } from './fake-context.js';
import { resourceHandler } from '../http/handlers/resource-handler.js';

/** A registry for tests. */
export interface TestRegistry {
  readonly registry: Registry;
  readonly backend: Backend;
  readonly names: Names;
  /** Runs one request through the resource handler. */
  call(req: FakeRequest): Promise<FakeResponse>;
}

/**
 * Builds a test registry; with `namespaces`, those namespaces are created first; `store` tunes its store; `backend`
 * replaces the memory backend.
 */
export async function testRegistry(namespaces: readonly string[] = ['default'], store?: StoreOptions, backend: Backend = openMemoryBackend()): Promise<TestRegistry> {
  const names = namesFor('svc');
  // The plugins that need the server's authorizer and service accounts are left out, as kube's handler tests run
  // without them; their own tests and the end-to-end tests cover them.
  const admission = createAdmissionChain({ names, disable: identityAdmissionPlugins });
  if (!admission.ok) throw new Error(admission.error.message);
  const registry = createRegistry({ backend, catalog: loadCatalog(names), names, admission: admission.value, ...(store ? { store } : {}) });
  const handle = resourceHandler(registry);
  const call = async (req: FakeRequest): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext(req);
    await handle(ctx);
    return response;
  };
  for (const name of namespaces) {
    const res = await call({ verb: 'create', resource: 'namespaces', body: { metadata: { name } } });
    if (res.code !== 201) throw new Error(`creating namespace ${name}: ${JSON.stringify(res.body)}`);
  }
  return { registry, backend, names, call };
}
