/** Small pieces the code-served subresources share. */
import { badRequest, success, type KubeObject, type Result, type Status } from '@svc-apiserver/api';
import type { RequestContext } from '../../context.js';
import type { Registry } from '../../../registry/registry.js';
import type { ResourceDef } from '../../../registry/resource-def.js';
import { decodeBody } from '../../decode-body.js';

/** The `201 Success` Status kube answers a binding or an eviction with. */
export function createdSuccess(): Status {
  return { ...success(), code: 201 };
}

/** The served core pods resource (for subresources of pods reached through another resource). */
export function podsDef(registry: Registry): ResourceDef | undefined {
  return registry.lookup('', 'v1', 'pods');
}

/**
 * Decodes a subresource body of `kind` (Binding, Eviction, TokenRequest): JSON or YAML, the kind must be the
 * expected one when set, and a name in the body must match the URL's (400 as kube's subresource handlers answer).
 */
export async function readSubresourceBody(ctx: RequestContext, kind: string, urlName: string): Promise<Result<KubeObject>> {
  const decoded = await decodeBody(ctx, ['application/json', 'application/yaml']);
  if (!decoded.ok) return decoded;
  const body = decoded.value.object;
  if (body.kind !== undefined && body.kind !== '' && body.kind !== kind) {
    return { ok: false, error: badRequest(`the body of the request was in an unknown format: expected ${kind}, got ${String(body.kind)}`) };
  }
  const bodyName = body.metadata?.name ?? '';
  if (urlName !== '' && bodyName !== '' && bodyName !== urlName) {
    return { ok: false, error: badRequest(`name in URL does not match name in ${kind} object`) };
  }
  return { ok: true, value: body };
}
