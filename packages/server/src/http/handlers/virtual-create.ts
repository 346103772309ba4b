/**
 * create on virtual resources (kube's create-only REST storages such as TokenReview and SelfSubjectReview, see
 * registry/virtual-resource.ts): the body is decoded and checked like any create (kind, apiVersion, schema and
 * field validation level), then answered by the resource's own function from the request's identity and
 * namespace. 201 with the answer.
 */
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import { checkSchema } from './schema-check.js';
import { checkTypeMeta, parseWriteOptions } from './request-options.js';
import { writeObject, writeStatus } from '../response-writer.js';
import { decodeBody } from '../decode-body.js';

/** Media types a virtual create body may come in. */
const bodyMediaTypes: readonly string[] = ['application/json', 'application/yaml'];

/** Serves a create on a virtual resource. */
export async function handleVirtualCreate(ctx: RequestContext, registry: Registry, def: ResourceDef, create: VirtualCreate): Promise<void> {
  const options = parseWriteOptions(ctx.query);
  if (!options.ok) return writeStatus(ctx, options.error);
  const decoded = await decodeBody(ctx, bodyMediaTypes);
  if (!decoded.ok) return writeStatus(ctx, decoded.error);
  const object = decoded.value.object;
  // `status` is the answer, filled by the server: what a client sends there is dropped unread (kube's review
  // storages build a new status), so its required fields are not asked of the request.
  delete (object as { status?: unknown }).status;
  const typed = checkTypeMeta(def, object);
  if (!typed.ok) return writeStatus(ctx, typed.error);
  const schema = checkSchema(ctx, registry, def, object, options.value.fieldValidation);
  if (!schema.ok) return writeStatus(ctx, schema.error);
  const answer = await create({ user: ctx.user, namespace: ctx.info.namespace }, def, object);
  if (!answer.ok) return writeStatus(ctx, answer.error);
  writeObject(ctx, 201, answer.value);
}
