/**
 * Admission attributes of a registry operation (admission.Attributes as kube's handlers build them).
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { AdmissionAttributes, AdmissionOperation } from '../../admission/plugin.js';
import type { UserInfo } from '../../auth/user-info.js';
import type { ResourceDef } from '../resource-def.js';

/** Who asks, and whether the write is a dry run. */
export interface OperationContext {
  readonly user: UserInfo;
  readonly dryRun: boolean;
}

/** The attributes of one operation on one object. */
export function admissionAttributes(
  def: ResourceDef, operation: AdmissionOperation, subresource: string, namespace: string, name: string,
  ctx: OperationContext, object?: KubeObject, oldObject?: KubeObject,
): AdmissionAttributes {
  return {
    operation, group: def.group, version: def.version, resource: def.resource, subresource, kind: def.kind,
    namespace, name, dryRun: ctx.dryRun, user: ctx.user,
    ...(object !== undefined ? { object } : {}),
    ...(oldObject !== undefined ? { oldObject } : {}),
  };
}
