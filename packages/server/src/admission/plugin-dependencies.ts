/**
 * The dependencies a plugin keeps from `initialize` (kube's plugin initializers set listers and clients the same
 * way, and ValidateInitialization refuses a plugin started without them): a plugin used before it was given
 * them is a bug of the server's wiring, so asking then throws.
 */
import type { Authorizer } from '../request/authorizer.js';
import type { Informer } from '../registry/informer.js';
import type { Registry } from '../registry/registry.js';
import type { AdmissionDependencies, AdmissionInformers } from './plugin.js';

/** A plugin's hold on its dependencies. */
export interface DependencyHolder {
  set(dependencies: AdmissionDependencies): void;
  /** Everything handed over; throws before `initialize`. */
  get(): AdmissionDependencies;
  registry(): Registry;
  informers(): AdmissionInformers;
  /** The synced informer of a served resource, undefined when the resource is not served. */
  informer(group: string, resource: string): Promise<Informer | undefined>;
  /**
   * {@link informer} without waiting: the informer when it has synced, undefined when the resource is not served,
   * `pending` while it syncs (then {@link informer} waits). A request's common path reads it without an await.
   */
  syncedInformer(group: string, resource: string): Informer | undefined | 'pending';
  authorizer(): Authorizer | undefined;
}

/** A holder for plugin `name`. */
export function dependencyHolder(name: string): DependencyHolder {
  let held: AdmissionDependencies | undefined;
  const get = (): AdmissionDependencies => {
    if (held === undefined) throw new Error(`${name} used before initialize`);
    return held;
  };
  const informers = (): AdmissionInformers => {
    const i = get().informers;
    if (i === undefined) throw new Error(`${name} was initialized without informers`);
    return i;
  };
  return {
    set(dependencies) {
      held = dependencies;
    },
    get,
    registry() {
      const r = get().registry;
      if (r === undefined) throw new Error(`${name} was initialized without the registry`);
      return r;
    },
    informers,
    informer: (group, resource) => informers().synced(group, resource),
    syncedInformer(group, resource) {
      const informer = informers().forResource(group, resource);
      return informer === undefined || informer.hasSynced() ? informer : 'pending';
    },
    authorizer: () => get().authorizer?.(),
  };
}
