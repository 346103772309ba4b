/**
 * What the registry requires of admission (k8s.io/apiserver's admission.Interface, MutationInterface and
 * ValidationInterface, and the attributes its handlers build): every write of the registry's write path passes
 * `admit` and then `validate` with these attributes. The registry owns this contract (the interface it runs is
 * `AdmissionInterface` in registry.ts) and the admission chain implements it, so the plugins above the registry
 * may read and write through it as kube's plugins use informers and clients.
 */
import type { KubeObject, Status } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { LatencyTrackers } from '../request/latency-trackers.js';

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
  /** The request's latency trackers, where the webhooks add the time they took. */
  readonly latency?: LatencyTrackers;
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
