/**
 * A served resource: its discovery facts (from the catalog) plus the strategy that gives it its behaviour.
 * The generic store and the verb handlers need nothing else to serve it.
 */
import type { QualifiedResource } from '@svc-apiserver/api';
import type { ApiResource } from '../schema/catalog.js';
import type { ResourceConversion } from './conversion/resource-conversion.js';
import type { Strategy } from './strategy.js';

/** A served resource. */
export interface ResourceDef extends ApiResource {
  /** `resource` and `group` for messages (`configmaps`, `leases.coordination.svc.io`). */
  readonly qualified: QualifiedResource;
  /** Storage key prefix of the collection, ending in `/`: `/registry/<groupKey or core>/<resource>/`. */
  readonly keyPrefix: string;
  readonly strategy: Strategy;
  /**
   * Set when this version is stored in another one (`keyPrefix` is then the storage version's): objects are
   * converted to it on write and back on read.
   */
  readonly conversion?: ResourceConversion;
}
