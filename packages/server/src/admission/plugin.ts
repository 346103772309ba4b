/**
 * Admission: ordered plugins that may mutate (mutating phase) and then accept or reject (validating phase) every
 * write. Each plugin is one module under `plugins/`; webhooks and CEL policies are plugins like the rest.
 */
import type { KubeObject, Names, Status } from '@svc-apiserver/api';
import type { Authorizer } from '../auth/authz/authorizer.js';
import type { UserInfo } from '../auth/user-info.js';
import type { Informer } from '../registry/informer.js';
import type { Registry } from '../registry/registry.js';
import type { FeatureGates } from '../feature-gates.js';
import type { AdmissionMetrics } from './admission-metrics.js';

/** The operation admitted. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** The audit level an annotation is kept from (audit.Level): `Metadata` and above, or `Request` and above. */
export type AuditAnnotationLevel = 'Metadata' | 'Request';

/**
 * Where a plugin reports beyond its answer (kube's warning.AddWarning and Attributes.AddAnnotation): warnings
 * for the client (`Warning: 299` headers) and annotations for the request's audit event.
 */
export interface AdmissionRecorder {
  warn(text: string): void;
  /** An audit annotation; a key keeps its first value, as kube's AddAnnotation refuses to overwrite. */
  annotate(key: string, value: string, level: AuditAnnotationLevel): void;
}

/**
 * The state of one request across the mutating passes (admission.ReinvocationContext): a plugin asks for another
 * pass (a webhook changed the object) and keeps its own values between passes by key.
 */
export interface ReinvocationContext {
  /** True in the second mutating pass. */
  readonly isReinvoke: boolean;
  /** Asks the chain for a second mutating pass. */
  requestReinvocation(): void;
  value(key: string): unknown;
  setValue(key: string, value: unknown): void;
}

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
  /**
   * The new object (absent on DELETE; the connect options on CONNECT). Mutating plugins change it in place, and
   * keep its identity: a plugin that computes a new object copies it into this one.
   */
  readonly object?: KubeObject;
  /** The current object (UPDATE, DELETE). */
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
  readonly user: UserInfo;
  /** Where warnings and audit annotations go; absent for writes nobody reports to (controllers). */
  readonly recorder?: AdmissionRecorder;
  /** Set by the chain while it runs the mutating phase. */
  readonly reinvocation?: ReinvocationContext;
}

/** A plugin's answer: accepted, or a Status (usually 403 Forbidden or 422 Invalid) that fails the request. */
export type AdmissionResult = { readonly allowed: true } | { readonly allowed: false; readonly status: Status };

/** The answer of a plugin that has nothing to say: plugins return it without waiting where they can. */
export const admitted: AdmissionResult = { allowed: true };

/** A refusal with `status`. */
export function refused(status: Status): AdmissionResult {
  return { allowed: false, status };
}

/**
 * Sets per-request machinery (the recorder, the reinvocation state) on attributes as a property that copies of
 * the attributes leave out: attributes are data a plugin may clone or record; the machinery is functions.
 */
export function withMachinery<K extends 'recorder' | 'reinvocation'>(
  attributes: AdmissionAttributes, key: K, value: NonNullable<AdmissionAttributes[K]>,
): AdmissionAttributes {
  Object.defineProperty(attributes, key, { value, enumerable: false });
  return attributes;
}

/** One admission plugin. */
export interface AdmissionPlugin {
  /** The name used by `--enable-admission-plugins` / `--disable-admission-plugins`. */
  readonly name: string;
  /** Whether the plugin runs when no flag names it. */
  readonly enabledByDefault: boolean;
  /** Whether the plugin cares about this request at all. */
  handles(operation: AdmissionOperation): boolean;
  /** Mutating phase; a plugin may answer at once when it has nothing to wait for. */
  admit?(attributes: AdmissionAttributes): Promise<AdmissionResult> | AdmissionResult;
  /** Validating phase: reads, never changes the object. */
  validate?(attributes: AdmissionAttributes): Promise<AdmissionResult> | AdmissionResult;
  /** Releases what `initialize` started (informers, timers); the chain calls it when the server stops. */
  close?(): void;
}

/** Shared informers over the watch cache for plugins (kube's informer factory handed to plugins). */
export interface AdmissionInformers {
  /**
   * The informer of a served resource (in its preferred served version), started on first use and shared by every
   * plugin; undefined when the resource is not served.
   */
  forResource(group: string, resource: string): Informer | undefined;
  /** The informer of the resource, synced: waits for its first full state. */
  synced(group: string, resource: string): Promise<Informer | undefined>;
}

/**
 * What plugins may read of the cluster, handed to them once the registry exists (kube's plugin initializers hand
 * listers, clients and the authorizer the same way).
 */
export interface AdmissionDependencies {
  /**
   * The stored namespace, or undefined when it does not exist: read from storage (kube's live lookup), or with
   * `cached` from the watch cache, which may lag storage by the feed's delay (kube's namespace lister); a cached
   * answer is shared between callers and frozen: read it, never change it.
   */
  getNamespace(name: string, options?: { readonly cached?: boolean }): Promise<KubeObject | undefined>;
  /** The registry: served resources, reads, and writes through the guarded write path. */
  readonly registry?: Registry;
  /** Shared informers; objects they hold are shared: read them, never change them. */
  readonly informers?: AdmissionInformers;
  /** The server's authorizer, once it exists (the registry is built before it). */
  readonly authorizer?: () => Authorizer | undefined;
}

/** A plugin that needs {@link AdmissionDependencies}. */
export interface InitializablePlugin extends AdmissionPlugin {
  initialize(dependencies: AdmissionDependencies): void;
}

/** Flags of kube-apiserver that configure built-in plugins. */
export interface AdmissionFlags {
  /** `--default-not-ready-toleration-seconds` (DefaultTolerationSeconds). */
  readonly defaultNotReadyTolerationSeconds: number;
  /** `--default-unreachable-toleration-seconds` (DefaultTolerationSeconds). */
  readonly defaultUnreachableTolerationSeconds: number;
}

/** kube-apiserver's defaults of {@link AdmissionFlags}: five minutes each. */
export const defaultAdmissionFlags: AdmissionFlags = { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 };

/** What a plugin factory is given besides the names. */
export interface PluginInit {
  /**
   * The configuration of the plugin named `name` from the admission configuration file (the parsed document of
   * its `path` or its inline `configuration`), undefined when none is given.
   */
  configuration(name: string): unknown;
  readonly flags: AdmissionFlags;
  readonly metrics: AdmissionMetrics;
  /** The server's feature gates (the expression-language plugins and match conditions are gated). */
  readonly featureGates?: FeatureGates;
}

/** A factory's refusal of its configuration, with kube's wording of why. */
export interface PluginConfigurationError {
  readonly name: string;
  readonly error: string;
}

/** Makes a plugin (kube's admission.Factory); configuration errors are values, never throws. */
export type PluginFactory = (names: Names, init: PluginInit) => AdmissionPlugin | PluginConfigurationError;
