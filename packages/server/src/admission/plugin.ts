/**
 * Admission: ordered plugins that may mutate (mutating phase) and then accept or reject (validating phase) every
 * write. Each plugin is one module under `plugins/`. Webhooks and CEL policies will be plugins like the rest.
 */
import type { KubeObject, Status } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';

/** The operation admitted. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** Everything a plugin may look at (admission.Attributes). */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /**
   * The kind of `object` and `oldObject` (admission.Attributes.GetKind): the resource's, or the subresource's own
   * where it is served as another kind (`Scale` on deployments/scale, `Binding` on pods/binding, `Eviction` on
   * pods/eviction).
   */
  readonly kind: string;
  /**
   * Group and version of `kind` where they are not the resource's (autoscaling/v1 Scale on apps/v1
   * deployments/scale, policy/v1 Eviction on v1 pods/eviction).
   */
  readonly kindGroupVersion?: { readonly group: string; readonly version: string };
  readonly namespace: string;
  readonly name: string;
  /** The new object (absent on DELETE). Mutating plugins change it in place. */
  readonly object?: KubeObject;
  /** The current object (UPDATE, DELETE). */
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
  readonly user: UserInfo;
}

/** A plugin's answer: accepted, or a Status (usually 403 Forbidden or 422 Invalid) that fails the request. */
export type AdmissionResult = { readonly allowed: true } | { readonly allowed: false; readonly status: Status };

/** One admission plugin. */
export interface AdmissionPlugin {
  /** The name used by `--enable-admission-plugins` / `--disable-admission-plugins`. */
  readonly name: string;
  /** Whether the plugin runs when no flag names it. */
  readonly enabledByDefault: boolean;
  /** Whether the plugin cares about this request at all. */
  handles(operation: AdmissionOperation): boolean;
  /** Mutating phase. */
  admit?(attributes: AdmissionAttributes): Promise<AdmissionResult>;
  /** Validating phase. */
  validate?(attributes: AdmissionAttributes): Promise<AdmissionResult>;
}

/**
 * What plugins may read of the cluster, handed to them once the registry exists (kube's plugin initializers hand
 * listers the same way).
 */
export interface AdmissionDependencies {
  /**
   * The stored namespace, or undefined when it does not exist: read from storage (kube's live lookup), or with
   * `cached` from the watch cache, which may lag storage by the feed's delay (kube's namespace lister); a cached
   * answer is shared between callers and frozen: read it, never change it.
   */
  getNamespace(name: string, options?: { readonly cached?: boolean }): Promise<KubeObject | undefined>;
}

/** A plugin that needs {@link AdmissionDependencies}. */
export interface InitializablePlugin extends AdmissionPlugin {
  initialize(dependencies: AdmissionDependencies): void;
}
