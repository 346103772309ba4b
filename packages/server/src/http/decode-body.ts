/**
 * The request body decoder every handler uses, over any transport: the body is read from the context's transport
 * and decoded by its Content-Type as kube-apiserver's serializers decode it: JSON (duplicate fields reported for
 * field validation), YAML (YAML 1.1 reading, large bodies off the event loop) and the flavour's protobuf, which
 * are accepted wherever JSON is (document 1; kubectl 1.32 and later send protobuf), and the patch types (JSON or
 * YAML documents too).
 */
import { badRequest, fail, type KubeObject, ok, type Result, unsupportedMediaType } from '@svc-apiserver/api';
import type { RequestContext } from './context.js';
import { decodeJsonYielding, jsonBodyMediaTypes, yamlBodyMediaTypes } from './decode.js';
import { responseEncoding } from './encode.js';
import { parseMediaType } from './media-type.js';
import { decodeYamlBody } from './yaml-decoder.js';
import { nestingTooDeepMessage, valueTooDeep } from '../limits/nesting-depth.js';

/** A decoded request body. */
export interface DecodedBody {
  /** The media type the body was sent in, without parameters (`application/json`, `application/yaml`, a patch type). */
  readonly mediaType: string;
  /** The decoded document. */
  readonly object: KubeObject;
  /**
   * Duplicated fields of the document, worded as kube-apiserver's strict decoders word them (`duplicate field
   * "spec.x"` for JSON, `line 3: key "x" already set in map` for YAML); for field validation.
   */
  readonly duplicateFields?: readonly string[];
}

/** True when a body of `mediaType` is taken by an endpoint that takes `accepted`: YAML and protobuf go with JSON. */
function acceptable(mediaType: string, accepted: readonly string[], protobufMediaType: string): boolean {
  return accepted.includes(mediaType) ||
    ((mediaType === 'application/yaml' || mediaType === protobufMediaType) && accepted.includes('application/json'));
}

/** The media types named in a 415 (only built for the answer: most requests never need it). */
function acceptableList(accepted: readonly string[], protobufMediaType: string): string[] {
  return accepted.includes('application/json') ? [...new Set([...accepted, 'application/yaml', protobufMediaType])] : [...accepted];
}

/**
 * Reads and decodes the request body as one of the `accepted` media types (by its Content-Type; JSON when none is
 * given) and records it for audit. 415 UnsupportedMediaType for other media types, 400 for malformed documents and
 * for a body that is not one object (a JSON patch is a list of operations).
 */
export async function decodeBody(ctx: RequestContext, accepted: readonly string[]): Promise<Result<DecodedBody>> {
  const contentType = ctx.headers['content-type'];
  const mediaType = contentType === undefined || contentType.trim() === '' ? 'application/json' : parseMediaType(contentType)?.type;
  const encoding = responseEncoding(ctx.names);
  const protobufMediaType = encoding.protobufMediaType;
  if (mediaType === undefined || !acceptable(mediaType, accepted, protobufMediaType) ||
      (mediaType !== protobufMediaType && !jsonBodyMediaTypes.has(mediaType) && !yamlBodyMediaTypes.has(mediaType))) {
    return fail(unsupportedMediaType(acceptableList(accepted, protobufMediaType)));
  }
  const body = await ctx.transport.readBody();
  if (!body.ok) return body;
  if (mediaType === protobufMediaType) {
    const decoded = encoding.decodeProtobuf(body.value);
    if (!decoded.ok) return decoded;
    // Embedded raw JSON (RawExtension, JSON fields) is decoded with the message: bound its nesting as JSON's.
    if (valueTooDeep(decoded.value)) return fail(badRequest(nestingTooDeepMessage()));
    ctx.record.requestObject = decoded.value;
    return ok({ mediaType, object: decoded.value });
  }
  const decoded = yamlBodyMediaTypes.has(mediaType) ? await decodeYamlBody(body.value, false) : await decodeJsonYielding(body.value);
  if (!decoded.ok) return decoded;
  const value = decoded.value;
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject && !(mediaType === 'application/json-patch+json' && Array.isArray(value))) {
    return fail(badRequest('the request body must be a JSON or YAML object'));
  }
  ctx.record.requestObject = value;
  return ok({ mediaType, object: value as KubeObject, duplicateFields: decoded.duplicateFields });
}
