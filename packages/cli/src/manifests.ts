/**
 * `-f`: the objects of files, directories (their `.yaml`, `.yml` and `.json` files; with `-R` their subfolders too),
 * and standard input (`-`), each file possibly holding several YAML documents or a `List`, as kubectl's resource
 * builder reads them. Each object is then resolved to its resource and namespace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type KubeObject, type Result } from '@svc-apiserver/api';
import { resolveKind, type DiscoveredResource, type ResourceRef } from '@svc-apiserver/client';
import { parseAllDocuments } from 'yaml';
import { error, refOf, reportStatus, resources, type Session } from './session.js';

const manifestExtensions = /\.(ya?ml|json)$/;

function filesOf(path: string, recursive: boolean): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) {
      if (recursive) out.push(...filesOf(full, true));
    } else if (manifestExtensions.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** Parses one file's text into objects (documents, and the items of `List`s). */
export function parseManifests(text: string, source: string): Result<KubeObject[], string> {
  const out: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) return fail(`error parsing ${source}: ${doc.errors[0]?.message ?? ''}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) return fail(`error parsing ${source}: not an object`);
    const obj = value as KubeObject;
    if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) out.push(...(obj.items as KubeObject[]));
    else out.push(obj);
  }
  return ok(out);
}

/** The objects of every `-f`. */
export async function readManifests(s: Session): Promise<Result<KubeObject[], string>> {
  const paths = s.flags.filename ?? [];
  if (paths.length === 0) return fail('must specify one of -f and -k');
  const out: KubeObject[] = [];
  for (const path of paths) {
    let files: string[];
    try {
      files = path === '-' ? ['-'] : filesOf(path, s.flags.recursive === true);
    } catch {
      return fail(`the path "${path}" does not exist`);
    }
    for (const file of files) {
      const text = file === '-' ? await s.io.readStdin() : readFileSync(file, 'utf8');
      const parsed = parseManifests(text, file === '-' ? 'STDIN' : file);
      if (!parsed.ok) return parsed;
      out.push(...parsed.value);
    }
  }
  if (out.length === 0) return fail('no objects passed to apply');
  return ok(out);
}

/** A manifest to act on, with its resource and the path it goes to. */
export interface ManifestTarget {
  readonly r: DiscoveredResource;
  readonly ref: ResourceRef;
  readonly obj: KubeObject;
}

/** Resolves objects' kinds and namespaces (kubectl's rules: `-n` must agree with the file); exit code on failure. */
export async function targetsOf(s: Session, objects: readonly KubeObject[]): Promise<Result<ManifestTarget[], number>> {
  const rs = await resources(s);
  if (!rs.ok) return fail(reportStatus(s.io, rs.error));
  const out: ManifestTarget[] = [];
  for (const obj of objects) {
    const r = resolveKind(rs.value, obj.apiVersion ?? '', obj.kind ?? '');
    if (!r) return fail(error(s.io, `resource mapping not found for name: "${obj.metadata?.name ?? ''}" namespace: "${obj.metadata?.namespace ?? ''}" from "": no matches for kind "${obj.kind ?? ''}" in version "${obj.apiVersion ?? ''}"`));
    const fileNs = obj.metadata?.namespace;
    if (r.namespaced && s.flags.namespace !== undefined && fileNs !== undefined && fileNs !== s.flags.namespace) {
      return fail(error(s.io, `the namespace from the provided object "${fileNs}" does not match the namespace "${s.flags.namespace}". You must pass '--namespace=${fileNs}' to perform this operation.`));
    }
    const ns = fileNs ?? s.namespace;
    const withNs: KubeObject = r.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace: ns } } : obj;
    out.push({ r, ref: refOf(r, ns), obj: withNs });
  }
  return ok(out);
}

/** Reads `-f` and resolves every object; the exit code once a failure is reported. */
export async function manifestTargets(s: Session): Promise<Result<ManifestTarget[], number>> {
  const manifests = await readManifests(s);
  if (!manifests.ok) return fail(error(s.io, manifests.error));
  return targetsOf(s, manifests.value);
}
