/**
 * Admission attributes of a registry operation (admission.Attributes as kube's handlers build them) and the
 * admission phases an operation runs. A request on a subresource served as its own kind (Scale, Binding, Eviction)
 * is admitted as that kind, with the parent's resource, namespace and name and the subresource's name.
 */
import type { KubeObject, Status } from '@svc-apiserver/api';
import { withMachinery, type AdmissionAttributes, type AdmissionOperation, type AdmissionRecorder } from '../admission-interface.js';
import type { UserInfo } from '../../request/user-info.js';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';

/** Who asks, and whether the write is a dry run. */
export interface OperationContext {
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /**
   * The request was admitted as its subresource's kind before this write (the Eviction of pods/eviction before the
   * pod's deletion): the write runs no admission of its own, as kube's subresource storage calls the store with
   * rest.ValidateAllObjectFunc.
   */
  readonly admitted?: boolean;
  /** Where admission's warnings (and audit annotations) go: the request's response. */
  readonly recorder?: AdmissionRecorder;
  /**
   * The field manager a write the server makes itself records (its controllers and post-start hooks, as kube's
   * loopback and controller-manager clients are recorded by their user agents): create and update track the
   * object's managedFields for it first. Absent for requests, whose handlers track their own manager.
   */
  readonly fieldManager?: string;
}

/** The kind a request on `subresource` of `def` carries (kube's RequestScope.Kind): the subresource's own or the resource's. */
export function subresourceKind(def: ResourceDef, subresource: string): { readonly group: string; readonly version: string; readonly kind: string } {
  const sub = subresource === '' ? undefined : def.subresources.find((s) => s.name === subresource);
  if (sub === undefined || sub.kind === '') return { group: def.group, version: def.version, kind: def.kind };
  return { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind };
}

/** The attributes of one operation on one object, through `subresource` (`''` for the resource itself). */
export function admissionAttributes(
  def: ResourceDef, operation: AdmissionOperation, subresource: string, namespace: string, name: string,
  ctx: OperationContext, object?: KubeObject, oldObject?: KubeObject,
): AdmissionAttributes {
  const kind = subresourceKind(def, subresource);
  const ownGroupVersion = kind.group === def.group && kind.version === def.version;
  const attributes: AdmissionAttributes = {
    operation, group: def.group, version: def.version, resource: def.resource, subresource, kind: kind.kind,
    ...(ownGroupVersion ? {} : { kindGroupVersion: { group: kind.group, version: kind.version } }),
    namespace, name, dryRun: ctx.dryRun, user: ctx.user,
    ...(object !== undefined ? { object } : {}),
    ...(oldObject !== undefined ? { oldObject } : {}),
  };
  return ctx.recorder === undefined ? attributes : withMachinery(attributes, 'recorder', ctx.recorder);
}

/**
 * One admission phase (`admit`: mutating, `validate`: validating) of an operation: the refusing plugin's Status,
 * or undefined when the chain allows it or the request was already admitted as its subresource's kind.
 */
export async function runAdmission(
  registry: Registry, phase: 'admit' | 'validate', attributes: AdmissionAttributes, ctx: OperationContext,
): Promise<Status | undefined> {
  if (ctx.admitted === true) return undefined;
  const result = await registry.admission[phase](attributes);
  return result.allowed ? undefined : result.status;
}

/**
 * Admits a request that stores nothing of its own kind (the Eviction of pods/eviction): mutating admission, then
 * validating admission of the same attributes, as kube's create handler and the subresource's Create run them.
 */
export async function admitRequest(registry: Registry, attributes: AdmissionAttributes, ctx: OperationContext): Promise<Status | undefined> {
  return await runAdmission(registry, 'admit', attributes, ctx) ?? await runAdmission(registry, 'validate', attributes, ctx);
}
