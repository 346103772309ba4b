/**
 * A served resource: its discovery facts (from the catalog) plus the strategy that gives it its behaviour.
 * The generic store and the verb handlers need nothing else to serve it.
 */
import { type KubeObject, type QualifiedResource, type Result } from '@svc-apiserver/api';
import type { ApiResource } from '../schema/catalog.js';
import type { OpenApiSchema } from '../schema/openapi-schema.js';
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
  /** Set for a version of a CustomResourceDefinition: what its structural schema and spec add. */
  readonly custom?: CustomResourceVersion;
}

/** A printer column of a custom resource (`additionalPrinterColumns`). */
export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  readonly jsonPath: string;
}

/** The scale subresource of a custom resource: where its replicas and selector live. */
export interface CustomScale {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/**
 * What a CRD version adds to the generic behaviour (apiextensions-apiserver's crdInfo): decoding prunes unknown
 * fields and applies defaults, apply reads list and map types from the schema, tables print its columns, `scale`
 * reads its paths, requests to a deprecated version warn.
 */
export interface CustomResourceVersion {
  /** The version's `openAPIV3Schema`. */
  readonly schema: OpenApiSchema;
  /** Drops, in place, the fields the schema does not specify; answers their paths (structural pruning). */
  prune(object: unknown): string[];
  /** Applies the schema's defaults in place. */
  applyDefaults(object: unknown): void;
  /** The schema declares a default somewhere (reads from storage apply them then). */
  readonly hasDefaults: boolean;
  /** `additionalPrinterColumns` (Age when none). */
  readonly columns: readonly PrinterColumn[];
  readonly scale?: CustomScale;
  /** The warning of a deprecated version. */
  readonly deprecationWarning?: string;
  /**
   * Conversion between versions by a webhook (`conversion.strategy: Webhook`); the store converts around its reads
   * and writes (registry/store.ts).
   */
  readonly converter?: ObjectConverter;
}

/** Converts custom objects between versions of their CRD (a conversion webhook). */
export interface ObjectConverter {
  /** The CRD's storage version. */
  readonly storageVersion: string;
  /** `objects` converted to `apiVersion`, in order, or the failure to answer. */
  convert(objects: readonly KubeObject[], apiVersion: string): Promise<Result<KubeObject[]>>;
}
