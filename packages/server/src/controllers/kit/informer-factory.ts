/**
 * Shared informers (client-go's SharedInformerFactory, and its metadatainformer twin): one informer per served
 * resource version and kind of view however many controllers read it, started on first request and stopped
 * together, so the controllers of one process keep one watch per resource and view.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { startInformer, type Informer, type InformerOptions } from '../../registry/informer.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { parseSelection } from '../../registry/selection.js';

/** Hands out shared informers. */
export interface InformerFactory {
  /**
   * The informer of `def` holding whole objects, started on the first call; with `fieldSelector`, of the objects it
   * selects only (client-go's filtered informer factory): a controller that reads one object by name then neither
   * holds nor decodes the others.
   */
  informerFor(def: ResourceDef, fieldSelector?: string): Informer;
  /**
   * The informer of `def` holding only each object's metadata (kube's PartialObjectMetadata, without managedFields),
   * for controllers that decide on metadata alone over every resource (the garbage collector): what they hold is
   * then small beside the watch cache.
   */
  metadataInformerFor(def: ResourceDef): Informer;
  /** Stops every informer it started. */
  stop(): void;
}

/** An object reduced to its type and metadata, managedFields dropped (kube-controller-manager strips them too). */
export function metadataOnly(object: KubeObject): KubeObject {
  const { managedFields: _dropped, ...metadata } = object.metadata ?? {};
  return {
    ...(object.apiVersion === undefined ? {} : { apiVersion: object.apiVersion }),
    ...(object.kind === undefined ? {} : { kind: object.kind }),
    metadata,
  };
}

/** Creates a factory over the registry's watch cache. */
export function createInformerFactory(registry: Registry, options: Omit<InformerOptions, 'transform'> = {}): InformerFactory {
  const informers = new Map<string, Informer>();
  let stopped = false;
  const shared = (view: 'object' | 'metadata', def: ResourceDef, fieldSelector = ''): Informer => {
    if (stopped) throw new Error('informer requested from a stopped informer factory');
    const key = `${view} ${def.group}/${def.version}/${def.resource} ${fieldSelector}`;
    let informer = informers.get(key);
    if (informer === undefined) {
      const selection = parseSelection(def, null, fieldSelector);
      // The selectors are the controllers' own constants.
      if (!selection.ok) throw new Error(`informer of ${def.resource}: ${selection.error.message ?? 'bad field selector'}`);
      const viewOptions = view === 'metadata' ? { ...options, transform: metadataOnly } : options;
      informer = startInformer(registry, def, fieldSelector === '' ? viewOptions : { ...viewOptions, selection: selection.value });
      informers.set(key, informer);
    }
    return informer;
  };
  return {
    informerFor: (def, fieldSelector) => shared('object', def, fieldSelector),
    metadataInformerFor: (def) => shared('metadata', def),
    stop() {
      stopped = true;
      for (const i of informers.values()) i.stop();
      informers.clear();
    },
  };
}
