/**
 * Reading the server's Table (kubectl's `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), in both
 * flavours: the meta group of the svc flavour is asked first, then the upstream one, then plain JSON, so any server
 * answers.
 */
import { namesFor, type KubeObject, type Result } from '@svc-apiserver/api';
import { age } from './age.js';
import { resourcePath, withQuery, type ResourceRef } from '@svc-apiserver/client';
import type { ServerTable } from './output.js';
import type { Session } from './session.js';

/** The Accept header asking for a Table in either flavour. */
export const tableAccept = [
  `application/json;as=Table;v=v1;g=${namesFor('svc').group('meta')}`,
  `application/json;as=Table;v=v1;g=${namesFor('k8s').group('meta')}`,
  'application/json',
].join(',');

/** Whether a response body is a Table. */
export function isTable(body: unknown): body is ServerTable {
  return typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Table';
}

/** The Table of one object (`name`) or of a collection filtered by label and field selectors. */
export function getTable(s: Session, ref: ResourceRef, name: string | undefined, query: Record<string, string | undefined>): Promise<Result<unknown>> {
  const path = withQuery(name === undefined ? resourcePath(ref) : resourcePath(ref, name), name === undefined ? query : {});
  return s.client.request({ method: 'GET', path, headers: { accept: tableAccept } });
}

/**
 * The response as a Table: a server that answers plain JSON (one without Table support) gets kubectl's default
 * columns, NAME and AGE.
 */
export function asTable(body: unknown): ServerTable {
  if (isTable(body)) return body;
  const b = (body ?? {}) as { items?: KubeObject[] } & KubeObject;
  const objects = Array.isArray(b.items) ? b.items : b.metadata?.name !== undefined ? [b] : [];
  return {
    columnDefinitions: [{ name: 'Name', priority: 0, format: 'name' }, { name: 'Age', priority: 0 }],
    rows: objects.map((o) => ({ cells: [o.metadata?.name ?? '', age(o.metadata?.creationTimestamp)], object: o })),
  };
}
