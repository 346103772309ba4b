/**
 * The catalog: what the generated schema data says about every built-in group, version and resource,
 * loaded in the server's flavour. Adding a resource to the served set is data (see `served-resources.ts`), not code.
 */
import type { FieldError, Names } from '@svc-apiserver/api';

/** A subresource of a resource, as discovery lists it. */
export interface ApiSubresource {
  /** `status`, `scale`, `finalize`, ... */
  readonly name: string;
  readonly kind: string;
  /** Group and version of `kind` when they differ from the parent's (e.g. autoscaling/v1 Scale). */
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly string[];
  /** components.schemas key of the subresource's body type. */
  readonly schemaName?: string;
}

/** One resource of one group-version, from the generated data, with names in the server's flavour. */
export interface ApiResource {
  /** Neutral group key (`''` core, `coordination`, `apps`). */
  readonly groupKey: string;
  /** Served group in this flavour (`''` core, `coordination.svc.io`, `apps`). */
  readonly group: string;
  readonly version: string;
  /** Plural, as in the URL. */
  readonly resource: string;
  readonly singularName: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  /** Discovery verbs: get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: readonly ApiSubresource[];
  /** components.schemas key of the kind (e.g. `io.k8s.api.core.v1.ConfigMap`). */
  readonly schemaName: string;
}

/** Result of validating a decoded object against its schema. */
export interface SchemaValidation {
  /** Type errors and missing required fields: the object is invalid (422). */
  readonly errors: readonly FieldError[];
  /** Paths of fields the schema does not know (`spec.foo`, `spec.containers[0].bar`), for the field-validation level. */
  readonly unknownFields: readonly string[];
}

/** Validates objects against the OpenAPI schemas. */
export interface SchemaValidator {
  validate(schemaName: string, object: unknown): SchemaValidation;
}

/** The loaded catalog. */
export interface Catalog {
  readonly names: Names;
  /** Every resource in the generated data (served or not). */
  readonly resources: readonly ApiResource[];
  readonly validator: SchemaValidator;
}
