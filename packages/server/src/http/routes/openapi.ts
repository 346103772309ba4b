/**
 * The OpenAPI endpoints as kube-apiserver (kube-openapi's handler and handler3) serves them: `/openapi/v2` in JSON
 * or gnostic protobuf, `/openapi/v3` (the index) and `/openapi/v3/<group-version path>`, with ETag revalidation
 * and, for a v3 document fetched by its `?hash=`, immutable caching (a stale hash is redirected to the current one).
 */
import type { RequestContext } from '../context.js';
import { parseAccept } from '../media-type.js';
import { notAcceptable } from '@svc-apiserver/api';
import { notFoundPath } from './not-found.js';
import { writeBytes, writeStatus } from '../response-writer.js';

/** A document with its serialization and content hash. */
export interface OpenApiBuilt {
  readonly json: string;
  readonly hash: string;
}

/** Where the documents come from (built from the catalog and the served resources). */
export interface OpenApiSource {
  v2(): OpenApiBuilt;
  /** The v2 document as the gnostic OpenAPIv2 protobuf message; absent when not available. */
  v2Protobuf?(): Promise<Uint8Array>;
  v3Index(): OpenApiBuilt;
  /** One group-version document (`api/v1`, `apis/apps/v1`); undefined when not served. */
  v3(groupVersionPath: string): OpenApiBuilt | undefined;
}

/** The protobuf media types kubectl asks `/openapi/v2` for. */
export const openapiV2ProtobufTypes = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];

/**
 * The Content-Type of the protobuf answer: the form without `@`, as kube-openapi returns for both requested forms
 * (Go's mime parser, which client-go runs on every response, rejects `@`).
 */
export const openapiV2ProtobufResponseType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

function etagMatches(ctx: RequestContext, etag: string): boolean {
  const header = ctx.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').map((s) => s.trim().replace(/^W\//, '')).some((s) => s === etag || s === '*');
}

/** Serves `/openapi/v2`. */
export async function serveOpenApiV2(ctx: RequestContext, source: OpenApiSource): Promise<void> {
  const doc = source.v2();
  const accept = parseAccept(ctx.headers.accept);
  let format: 'json' | 'protobuf' | undefined = accept.length === 0 ? 'json' : undefined;
  for (const m of accept) {
    if (openapiV2ProtobufTypes.includes(m.type) && source.v2Protobuf) {
      format = 'protobuf';
      break;
    }
    if (['application/json', 'application/*', '*/*'].includes(m.type)) {
      format = 'json';
      break;
    }
  }
  if (format === undefined) {
    writeStatus(ctx, notAcceptable(['application/json', ...(source.v2Protobuf ? [openapiV2ProtobufTypes[0]!] : [])]));
    return;
  }
  const etag = `"${doc.hash}"`;
  const headers = { ETag: etag, Vary: 'Accept' };
  if (etagMatches(ctx, etag)) {
    writeBytes(ctx, 304, '', '', headers);
    return;
  }
  if (format === 'protobuf') writeBytes(ctx, 200, openapiV2ProtobufResponseType, await source.v2Protobuf!(), headers);
  else writeBytes(ctx, 200, 'application/json', doc.json, headers);
}

/** Serves `/openapi/v3` and `/openapi/v3/<group-version path>`. */
export function serveOpenApiV3(ctx: RequestContext, source: OpenApiSource, groupVersionPath: string): void {
  const doc = groupVersionPath === '' ? source.v3Index() : source.v3(groupVersionPath);
  if (doc === undefined) {
    writeStatus(ctx, notFoundPath());
    return;
  }
  const etag = `"${doc.hash}"`;
  const headers: Record<string, string> = { ETag: etag, Vary: 'Accept' };
  const hash = ctx.query.get('hash');
  if (groupVersionPath !== '' && hash !== null && hash !== '') {
    if (hash !== doc.hash) {
      writeBytes(ctx, 301, '', '', { Location: `/openapi/v3/${groupVersionPath}?hash=${doc.hash}`, 'Cache-Control': 'no-cache' });
      return;
    }
    headers['Cache-Control'] = 'public, immutable';
    headers['Expires'] = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
  }
  if (etagMatches(ctx, etag)) {
    writeBytes(ctx, 304, '', '', headers);
    return;
  }
  writeBytes(ctx, 200, 'application/json', doc.json, headers);
}
