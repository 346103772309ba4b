/**
 * A Strategy gives a resource its behaviour on top of the generic store (k8s.io/apiserver's RESTCreateStrategy,
 * RESTUpdateStrategy and friends, as one plain value).
 */
import type { FieldError, KubeObject, Status } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { NameRule } from '../meta/name-rules.js';
import type { Steps } from '../limits/turn-budget.js';

/** The behaviour of a subresource that writes part of an object (`status`, `finalize`). */
export interface SubresourceStrategy {
  /** Keeps everything the subresource may not change (status: all but status and metadata). */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  /**
   * {@link validateUpdate} in steps, for validation whose work grows with the object (a custom object's schema):
   * the write path runs it giving the event loop back between steps (limits/turn-budget.ts), with the same errors.
   */
  readonly validateUpdateSteps?: (object: KubeObject, old: KubeObject) => Steps<FieldError[]>;
}

/**
 * Storage steps around a write for what an object holds outside itself (kube's BeginCreate/BeginUpdate and
 * AfterDelete hooks of the generic store: Services' cluster IPs and node ports in the shared range records).
 */
export interface WriteHooks {
  /**
   * Runs before the storage write of a prepared, validated object (create or update; with `dryRun`, only checks):
   * errors fail the write as 422 Invalid; `finish` runs after the write with its success.
   */
  beginWrite(object: KubeObject, options: { dryRun: boolean }): Promise<{ errors: FieldError[]; finish(success: boolean): Promise<void> }>;
  /** Runs after the object was removed from storage. */
  afterRemove(object: KubeObject, options: { dryRun: boolean }): Promise<void>;
}

/** A resource's behaviour. */
export interface Strategy {
  /** PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** PUT without `metadata.resourceVersion` overwrites unconditionally. */
  readonly allowUnconditionalUpdate: boolean;
  /** The rule `metadata.name` must follow (kube's ValidateNameFunc of the type). */
  readonly nameRule: NameRule;
  /** The rule for this object's name where it depends on the object (ClusterTrustBundles on their signer). */
  nameRuleOf?(object: KubeObject): NameRule;
  /** `metadata.generation` is 1 on create and bumps when anything but metadata and status changes. */
  readonly tracksGeneration: boolean;
  /**
   * With {@link tracksGeneration}: a change of `status` bumps the generation too (a custom resource without a status
   * subresource, whose strategy in kube compares all but metadata).
   */
  readonly generationCountsStatus?: boolean;
  /** A delete that removes the object answers with the object (kube's ReturnDeletedObject), else a Success Status. */
  readonly returnDeletedObject: boolean;
  /**
   * The kind's defaulting (its `SetDefaults_*` functions, kube's scheme defaulter), in place and idempotent. It is
   * not a strategy step: it runs where kube's codec runs it, on the decoded body or patch result before field
   * management (operations/defaulting.ts).
   */
  readonly defaults?: (object: KubeObject) => void;
  /** {@link defaults} in steps, for defaulting whose work grows with the object (a custom object's schema). */
  readonly defaultsSteps?: (object: KubeObject) => Steps<void>;
  /**
   * Clears what a client may not set on create (e.g. status when a status subresource exists); `user` is the
   * requester (kube's PrepareForCreate reads it from the request context: CertificateSigningRequests record it).
   */
  prepareForCreate(object: KubeObject, user?: UserInfo): void;
  /** Keeps what a main-resource update may not change (e.g. status). */
  prepareForUpdate(object: KubeObject, old: KubeObject): void;
  /** Type-specific validation on create. */
  validate(object: KubeObject): FieldError[];
  /** Type-specific validation on update (immutable fields and the like). */
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[];
  /** {@link validate} in steps (as {@link SubresourceStrategy.validateUpdateSteps}). */
  readonly validateSteps?: (object: KubeObject) => Steps<FieldError[]>;
  /** {@link validateUpdate} in steps (as {@link SubresourceStrategy.validateUpdateSteps}). */
  readonly validateUpdateSteps?: (object: KubeObject, old: KubeObject) => Steps<FieldError[]>;
  /** Warnings for a write (returned as `Warning` headers). */
  warnings(object: KubeObject, old?: KubeObject): string[];
  /**
   * Fields a field selector may name beyond `metadata.name` and `metadata.namespace`, with their values for one
   * object (kube's GetAttrs / field label conversion).
   */
  selectableFields?(object: KubeObject): Record<string, string>;
  /**
   * Called at every delete on a copy of the stored object: true keeps the object in place (the store then sets
   * `deletionTimestamp` if unset and stores the copy), false lets the generic finalizer rule decide. Namespaces
   * use it to go `Terminating` until their spec finalizers are gone.
   */
  holdOnDelete?(object: KubeObject): boolean;
  /**
   * Graceful deletion (kube's RESTGracefulDeleteStrategy.CheckGracefulDelete): given the object and the request's
   * `gracePeriodSeconds` (undefined when the client sent none), the grace period the delete gets, 0 meaning at
   * once. Resources without it have no graceful deletion (kube: every kind but pods).
   */
  gracePeriodFor?(object: KubeObject, requested: number | undefined): number;
  /**
   * Why deleting the named object is forbidden, or undefined: checked first by a delete request (kube's REST
   * storages that override Delete; the system PriorityClasses cannot be deleted). The answer is 403 Forbidden.
   */
  refuseDelete?(name: string): string | undefined;
  /** The status subresource's behaviour, when the resource has one. */
  readonly status?: SubresourceStrategy;
  /** The finalize subresource's behaviour (namespaces). */
  readonly finalize?: SubresourceStrategy;
  /**
   * Other subresources written through the generic update and patch handlers, by name (pods'
   * `ephemeralcontainers`, certificatesigningrequests' `approval`).
   */
  readonly subresources?: Readonly<Record<string, SubresourceStrategy>>;
  /** Steps around storage writes, for resources holding allocations outside their objects. */
  readonly writeHooks?: WriteHooks;
  /**
   * A check of the writer beyond authorization, before anything else of a create or update of the main resource
   * (kube's RBAC policy-based storage: a Role may not grant what its writer does not hold). `old` is absent on
   * create. A Status (403 Forbidden, or the failure met while checking) fails the write.
   */
  authorizeWrite?(object: KubeObject, old: KubeObject | undefined, user: UserInfo): Promise<Status | undefined>;
}
