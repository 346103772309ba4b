/**
 * The variables of admission expressions (document 3 §Admission; k8s.io/apiserver/pkg/admission/plugin/cel): the
 * ValidatingAdmissionPolicy's validations, audit annotations and match conditions, and webhooks' matchConditions.
 * `request` is typed (AdmissionRequest without its objects); `object`, `oldObject` and `params` are dynamic unless
 * type checking declares the matched kind's type; `authorizer` is the authorizer library's value.
 */
import type { VariableDecl } from './environment.js';
import { authorizerType, declTypeOf, dynType, type DeclType, type StructuralSchema } from './schema-types.js';

const str: StructuralSchema = { type: 'string' };
const groupVersionKind: StructuralSchema = { type: 'object', properties: { group: str, version: str, kind: str } };
const groupVersionResource: StructuralSchema = { type: 'object', properties: { group: str, version: str, resource: str } };

/** The schema of `request` (admission/v1 AdmissionRequest without `object` and `oldObject`). */
const requestSchema: StructuralSchema = {
  type: 'object',
  properties: {
    kind: groupVersionKind,
    resource: groupVersionResource,
    subResource: str,
    requestKind: groupVersionKind,
    requestResource: groupVersionResource,
    requestSubResource: str,
    name: str,
    namespace: str,
    operation: str,
    userInfo: {
      type: 'object',
      properties: {
        username: str,
        uid: str,
        groups: { type: 'array', items: str },
        extra: { type: 'object', additionalProperties: { type: 'array', items: str } },
      },
    },
    dryRun: { type: 'boolean' },
    options: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

/** The type of `request`. */
export const admissionRequestType: DeclType = declTypeOf(requestSchema, { typeName: 'kubernetes.AdmissionRequest' })!;

/** What an admission expression may read besides `object`, `oldObject`, `request` and `authorizer`. */
export interface AdmissionVariableOptions {
  /** The policy has a `paramKind`: `params` is declared. */
  readonly params?: boolean;
  /** The type of `object` and `oldObject` (type checking against a matched kind); dynamic by default. */
  readonly objectType?: DeclType;
}

/** The declared variables of an admission expression. */
export function admissionVariables(options: AdmissionVariableOptions = {}): VariableDecl[] {
  const objectType = options.objectType ?? dynType;
  return [
    { name: 'object', type: objectType },
    { name: 'oldObject', type: objectType },
    { name: 'request', type: admissionRequestType },
    { name: 'authorizer', type: authorizerType },
    ...(options.params === true ? [{ name: 'params', type: dynType }] : []),
  ];
}
