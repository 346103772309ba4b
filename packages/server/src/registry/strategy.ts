/**
 * A Strategy gives a resource its behaviour on top of the generic store (k8s.io/apiserver's RESTCreateStrategy,
 * RESTUpdateStrategy and friends, as one plain value).
 */
import type { FieldError, KubeObject } from '@svc-apiserver/api';

/** A resource's behaviour. */
export interface Strategy {
  /** PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** PUT without `metadata.resourceVersion` overwrites unconditionally. */
  readonly allowUnconditionalUpdate: boolean;
  /** Clears what a client may not set on create (e.g. status when a status subresource exists). */
  prepareForCreate(object: KubeObject): void;
  /** Keeps what a main-resource update may not change (e.g. status). */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  /** Type-specific validation on create. */
  validate(object: KubeObject): FieldError[];
  /** Type-specific validation on update (immutable fields and the like). */
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  /** Warnings for a write (returned as `Warning` headers). */
  warnings(object: KubeObject, old?: KubeObject): string[];
  /** The status subresource's behaviour, when the resource has one. */
  readonly status?: {
    /** Keeps everything but status (and the metadata status writers may change). */
    prepareForUpdate(object: KubeObject, old: KubeObject): void;
    validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  };
}
