/**
 * Admission: ordered plugins that may mutate (mutating phase) and then accept or reject (validating phase) every
 * write. Each plugin is one module under `plugins/`; webhooks and CEL policies are plugins like the rest. What a
 * plugin is asked (the attributes) and answers is the registry's admission contract, re-exported here for the
 * plugins.
 */
import type { Names, Result } from '@svc-apiserver/api';
import type { Informer } from '../registry/informer.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionResult } from '../registry/admission-interface.js';
import type { AdmissionAccess } from '../registry/registry.js';
import type { FeatureGates } from '../feature-gates.js';
import type { AdmissionMetrics } from './admission-metrics.js';

export {
  admitted, refused, withMachinery,
  type AdmissionAttributes, type AdmissionOperation, type AdmissionRecorder, type AdmissionResult, type AuditAnnotationLevel,
  type ReinvocationContext,
} from '../registry/admission-interface.js';

/** One admission plugin. */
export interface AdmissionPlugin {
  /** The name used by `--enable-admission-plugins` / `--disable-admission-plugins`. */
  readonly name: string;
  /** Whether the plugin runs when no flag names it. */
  readonly enabledByDefault: boolean;
  /** kube's klog warning when a deprecated plugin is enabled (AlwaysAdmit, AlwaysDeny). */
  readonly deprecationWarning?: string;
  /** Whether the plugin cares about requests of this operation at all (the chain asks once per operation). */
  handles(operation: AdmissionOperation): boolean;
  /**
   * Whether the plugin can act on requests of this resource at all (any subresource), when it acts on only some
   * (LimitRanger on pods and claims): the chain asks once per resource and never calls the plugin for others,
   * which it would answer at once with nothing to do. Absent: every resource.
   */
  actsOn?(group: string, resource: string): boolean;
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

/** What plugins may read of the cluster: the registry's {@link AdmissionAccess} and the chain's shared informers. */
export interface AdmissionDependencies extends AdmissionAccess {
  /** Shared informers; objects they hold are shared: read them, never change them. */
  readonly informers?: AdmissionInformers;
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

/** Makes a plugin (kube's admission.Factory), or refuses its configuration; never throws. */
export type PluginFactory = (names: Names, init: PluginInit) => Result<AdmissionPlugin, PluginConfigurationError>;
