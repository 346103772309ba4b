/**
 * The registry: the served resources (catalog entries of the served list joined with their strategies), the store
 * they live in and the admission chain every write passes. The HTTP handlers and the controllers work through it.
 */
import { qualifiedResourceString, type KubeObject, type Names } from '@svc-apiserver/api';
import type { Authorizer } from '../request/authorizer.js';
import { defaultFeatureGates, type FeatureGates } from '../feature-gates.js';
import type { AdmissionAttributes, AdmissionResult } from './admission-interface.js';
import type { Catalog, SchemaValidator } from '../schema/catalog.js';
import { entryFor, type ResourceTable } from '../schema/resource-keys.js';
import type { Backend } from '../storage/backend.js';
import type { StoredObject } from '../storage/watch-cache/stored-object.js';
import { collectionPrefix } from '../storage/key.js';
import { conversionFor } from './conversion/index.js';
import { defineStrategy } from './default-strategy.js';
import type { ResourceDef } from './resource-def.js';
import { strategyFactories, type StrategyFactory } from './resources/index.js';
import { servedResources, type ServedResource } from './served-resources.js';
import { createStore, withWebhookConversion, type Store, type StoreOptions } from './store.js';

/**
 * The read access the registry hands admission once it exists (kube's plugin initializers hand listers, clients
 * and the authorizer the same way).
 */
export interface AdmissionAccess {
  /**
   * The stored namespace, or undefined when it does not exist: read from storage (kube's live lookup), or with
   * `cached` from the watch cache, which may lag storage by the feed's delay (kube's namespace lister); a cached
   * answer is shared between callers and frozen: read it, never change it.
   */
  getNamespace(name: string, options?: { readonly cached?: boolean }): Promise<KubeObject | undefined>;
  /** The registry: served resources, reads, and writes through the guarded write path. */
  readonly registry?: Registry;
  /** The server's authorizer, once it exists (the registry is built before it). */
  readonly authorizer?: () => Authorizer | undefined;
}

/** Admission as the registry runs it: mutating, then validating, over the plugins the server enabled. */
export interface AdmissionInterface {
  /** Hands the registry's read access to the plugins that need it. */
  initialize(access: AdmissionAccess): void;
  /** Mutating phase (with its second pass when a plugin asks for one). */
  admit(attributes: AdmissionAttributes): Promise<AdmissionResult>;
  /** Validating phase. */
  validate(attributes: AdmissionAttributes): Promise<AdmissionResult>;
  /** Stops what the plugins started. */
  close(): void;
}

/** The served resources and what serves them. */
export interface Registry {
  /** A served resource by served group, version and plural. */
  lookup(group: string, version: string, resource: string): ResourceDef | undefined;
  all(): readonly ResourceDef[];
  readonly store: Store;
  readonly admission: AdmissionInterface;
  readonly names: Names;
  readonly validator: SchemaValidator;
  /**
   * Replaces the resources defined at run time by `owner` (a CustomResourceDefinition's name); an empty list
   * removes them. A built-in resource of the same group, version and plural keeps precedence, as kube-apiserver's
   * built-in handlers come before its CRD handler.
   */
  define(owner: string, defs: readonly ResourceDef[]): void;
  /** Calls `listener` after every change of the served set; returns its removal. */
  onChange(listener: () => void): () => void;
}

/** What {@link createRegistry} needs. */
export interface RegistryOptions {
  readonly backend: Backend;
  readonly catalog: Catalog;
  readonly names: Names;
  readonly admission: AdmissionInterface;
  /** The served set; default {@link servedResources}. */
  readonly served?: readonly ServedResource[];
  /** Options of the store's reads: watch cache, feature gates, watch timeouts. */
  readonly store?: StoreOptions;
  /** Strategies replacing the built-in ones, by the same keys (e.g. Services with the server's allocator). */
  readonly strategies?: ResourceTable<StrategyFactory>;
  /** The gates the strategies follow (`--feature-gates`); default every gate at its 1.27 default. */
  readonly featureGates?: FeatureGates;
  /** The server's authorizer for admission plugins that ask it (built after the registry, so late-bound). */
  readonly authorizer?: () => Authorizer | undefined;
}

/** Builds the registry and hands the admission plugins their read access. */
export function createRegistry(options: RegistryOptions): Registry {
  const { backend, catalog, names, admission } = options;
  const defs: ResourceDef[] = [];
  const factories: ResourceTable<StrategyFactory> = { ...strategyFactories, ...options.strategies };
  const gates = options.featureGates ?? defaultFeatureGates;
  for (const s of options.served ?? servedResources) {
    const entry = catalog.resources.find((r) => r.groupKey === s.groupKey && r.version === s.version && r.resource === s.resource);
    if (entry === undefined) continue;
    // A version-specific strategy wins over the resource's.
    const factory = entryFor(factories, s.groupKey, s.version, s.resource);
    const strategy = factory ? factory(names, gates) : defineStrategy({ hasStatus: entry.subresources.some((sub) => sub.name === 'status') });
    const qualified = { group: entry.group, resource: entry.resource };
    const conversion = conversionFor(names, s.groupKey, s.version, s.resource);
    const stored = conversion?.storage ?? entry;
    defs.push({
      ...entry, qualified, keyPrefix: collectionPrefix(stored.groupKey, stored.resource), strategy,
      ...(conversion !== undefined ? { conversion } : {}),
    });
  }
  const pathOf = (d: ResourceDef): string => `${d.group}/${d.version}/${d.resource}`;
  const byPath = new Map(defs.map((d) => [pathOf(d), d]));
  const store = withWebhookConversion(createStore(backend, { names, ...options.store }));
  const dynamicByOwner = new Map<string, readonly ResourceDef[]>();
  let dynamicByPath = new Map<string, ResourceDef>();
  let everything: readonly ResourceDef[] = defs;
  const listeners = new Set<() => void>();
  const registry: Registry = {
    lookup: (group, version, resource) => {
      const path = `${group}/${version}/${resource}`;
      return byPath.get(path) ?? dynamicByPath.get(path);
    },
    all: () => everything,
    store,
    admission,
    names,
    validator: catalog.validator,
    define(owner, owned) {
      if (owned.length === 0) dynamicByOwner.delete(owner);
      else dynamicByOwner.set(owner, owned);
      const dynamic = [...dynamicByOwner.values()].flat().filter((d) => !byPath.has(pathOf(d)));
      dynamicByPath = new Map(dynamic.map((d) => [pathOf(d), d]));
      everything = [...defs, ...dynamic];
      for (const l of [...listeners]) l();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  /**
   * Cached namespaces decoded once per version and shared (frozen) by every admission that reads them:
   * NamespaceLifecycle looks its namespace up on every namespaced write, and a fresh decode of the same unchanged
   * version each time showed in the profile of small creates. Keyed weakly by the cache's object: a new version is
   * a new key.
   */
  const sharedNamespaces = new WeakMap<StoredObject, KubeObject>();
  admission.initialize({
    registry,
    ...(options.authorizer === undefined ? {} : { authorizer: options.authorizer }),
    async getNamespace(name, options) {
      const def = registry.lookup('', 'v1', 'namespaces');
      if (def === undefined) return undefined;
      if (options?.cached !== true) {
        // A live read of storage (kube's quorum read): a fresh object each time.
        const got = await store.get(def, '', name);
        return got.ok ? got.value : undefined;
      }
      // resourceVersion "0": any state the cache holds, without a round trip to storage.
      const got = await store.getStored(def, '', name, '0');
      if (!got.ok) return undefined;
      let object = sharedNamespaces.get(got.value);
      if (object === undefined) {
        object = deepFreeze(got.value.parsed());
        sharedNamespaces.set(got.value, object);
      }
      return object;
    },
  });
  return registry;
}

/** Freezes a decoded JSON value through and through (a shared object no reader may change). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** `configmaps` or `leases.coordination.svc.io`, for logs. */
export function describeResource(def: ResourceDef): string {
  return qualifiedResourceString(def.qualified);
}
