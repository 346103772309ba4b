/**
 * The authorizer a CEL evaluation is bound to (k8s.io/apiserver/pkg/cel/library authz.go's authorizer.Authorizer
 * bound to the requesting user): what one check asks and what it answers. Its own file because both the authorizer
 * library and the evaluation state, which caches the decisions of one evaluation, speak of it.
 */

/** What one check asks (authorizer.AttributesRecord without the user, whom the bound authorizer knows). */
export interface CelAuthorizationAttributes {
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** For non-resource checks. */
  readonly path: string;
  readonly apiGroup: string;
  /** Always `*`: a check is about every version of the resource. */
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** The answer to one check. */
export interface CelAuthorizationDecision {
  readonly decision: 'allow' | 'deny' | 'no-opinion';
  readonly reason: string;
}

/** Decides checks for the requesting user; may answer later (evaluateAsync waits for it). */
export type CelAuthorizer = (attributes: CelAuthorizationAttributes) => CelAuthorizationDecision | Promise<CelAuthorizationDecision>;
