/**
 * svcctl: a small kubectl-like command line over the client library. `run` takes argv and an output sink and
 * returns the exit code, so tests drive it without a process.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fail, ok, type KubeObject, type Result, type Status } from '@svc-apiserver/api';
import {
  createClient, discoverResources, loadKubeconfig, resolveKind, resolveResource,
  type DiscoveredResource, type ResourceRef, type RestClient,
} from '@svc-apiserver/client';
import { parseAllDocuments } from 'yaml';
import { formatObjects, objectName, parseOutput, table } from './output.js';

/** Where svcctl writes and what it reads. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads standard input (for `-f -`). */
  readonly readStdin: () => Promise<string>;
  readonly env: NodeJS.ProcessEnv;
}

/** The client version svcctl reports. */
export const cliVersion = 'v0.1.0';

const usage = `svcctl controls an svc-apiserver (or any Kubernetes API server).

Usage: svcctl [--kubeconfig FILE] [--context NAME] [-n NAMESPACE] COMMAND [args]

Commands:
  get RESOURCE [NAME...] [-o json|yaml|name] [-A]
  create -f FILE
  apply -f FILE            (server-side apply)
  replace -f FILE
  delete RESOURCE NAME... | delete -f FILE
  label RESOURCE NAME KEY=VALUE... KEY- [--overwrite]
  api-resources
  version
`;

interface Flags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  output?: string;
  filename?: string[];
  'all-namespaces'?: boolean;
  overwrite?: boolean;
  'field-manager'?: string;
  force?: boolean;
  help?: boolean;
}

/** The context of one command. */
interface Session {
  readonly io: CliIo;
  readonly client: RestClient;
  readonly flags: Flags;
  readonly namespace: string;
  resources?: DiscoveredResource[];
}

/** Prints a failure as kubectl does: `Error from server (NotFound): ...`, or `error: ...` for local failures. */
function reportStatus(io: CliIo, status: Status): number {
  if (status.code === 0) io.stderr(`error: ${status.message ?? 'unknown error'}\n`);
  else io.stderr(`Error from server${status.reason ? ` (${status.reason})` : ''}: ${status.message ?? ''}\n`);
  return 1;
}

function error(io: CliIo, message: string): number {
  io.stderr(`error: ${message}\n`);
  return 1;
}

async function resources(s: Session): Promise<Result<DiscoveredResource[]>> {
  if (s.resources) return ok(s.resources);
  const r = await discoverResources(s.client);
  if (r.ok) s.resources = r.value;
  return r;
}

function refOf(r: DiscoveredResource, namespace: string | undefined): ResourceRef {
  const ref: ResourceRef = { group: r.group, version: r.version, resource: r.resource };
  return r.namespaced && namespace !== undefined ? { ...ref, namespace } : ref;
}

async function readManifests(s: Session): Promise<Result<KubeObject[], string>> {
  const files = s.flags.filename ?? [];
  if (files.length === 0) return fail('must specify one of -f and -k');
  const out: KubeObject[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = file === '-' ? await s.io.readStdin() : readFileSync(file, 'utf8');
    } catch (e) {
      return fail(`the path "${file}" does not exist: ${(e as Error).message}`);
    }
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) return fail(`error parsing ${file}: ${doc.errors[0]?.message ?? ''}`);
      const value = doc.toJS() as unknown;
      if (value === null || value === undefined) continue;
      if (typeof value !== 'object' || Array.isArray(value)) return fail(`error parsing ${file}: not an object`);
      const obj = value as KubeObject;
      // a List of objects (as `get -o yaml` prints) stands for its items
      if (obj.kind === 'List' && Array.isArray(obj.items)) out.push(...(obj.items as KubeObject[]));
      else out.push(obj);
    }
  }
  return ok(out);
}

/** A manifest to act on, with its resource and the path it goes to. */
interface ManifestTarget {
  readonly r: DiscoveredResource;
  readonly ref: ResourceRef;
  readonly obj: KubeObject;
}

/** Resolves each manifest's kind and namespace; the exit code once a failure is reported. */
async function manifestTargets(s: Session): Promise<Result<ManifestTarget[], number>> {
  const manifests = await readManifests(s);
  if (!manifests.ok) return fail(error(s.io, manifests.error));
  const rs = await resources(s);
  if (!rs.ok) return fail(reportStatus(s.io, rs.error));
  const out: ManifestTarget[] = [];
  for (const obj of manifests.value) {
    const r = resolveKind(rs.value, obj.apiVersion ?? '', obj.kind ?? '');
    if (!r) return fail(error(s.io, `resource mapping not found for kind "${obj.kind ?? ''}" in version "${obj.apiVersion ?? ''}"`));
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

/** The resource a command names; the exit code once a failure is reported. */
async function resolveArg(s: Session, arg: string | undefined): Promise<Result<DiscoveredResource, number>> {
  if (!arg) return fail(error(s.io, 'you must specify the type of resource'));
  const rs = await resources(s);
  if (!rs.ok) return fail(reportStatus(s.io, rs.error));
  const r = resolveResource(rs.value, arg);
  if (!r) return fail(error(s.io, `the server doesn't have a resource type "${arg}"`));
  return ok(r);
}

async function cmdGet(s: Session, args: string[]): Promise<number> {
  const format = parseOutput(s.flags.output);
  if (!format) return error(s.io, `unable to match a printer suitable for the output format "${s.flags.output ?? ''}"`);
  const res = await resolveArg(s, args[0]);
  if (!res.ok) return res.error;
  const all = s.flags['all-namespaces'] === true;
  const ref = refOf(res.value, all ? undefined : s.namespace);
  const names = args.slice(1);
  if (names.length === 0) {
    const list = await s.client.list(ref);
    if (!list.ok) return reportStatus(s.io, list.error);
    const items = list.value.items;
    if (items.length === 0 && (format === 'table' || format === 'wide')) {
      s.io.stderr(res.value.namespaced && !all ? `No resources found in ${s.namespace} namespace.\n` : 'No resources found\n');
      return 0;
    }
    // list items carry no kind/apiVersion on the wire; -o json/yaml shows them filled in, as kubectl does
    const filled = items.map((o) => ({ apiVersion: list.value.apiVersion, kind: res.value.kind, ...o }));
    s.io.stdout(formatObjects(res.value, filled, format, false, all));
    return 0;
  }
  const objects: KubeObject[] = [];
  let code = 0;
  for (const name of names) {
    const got = await s.client.get(ref, name);
    if (got.ok) objects.push(got.value);
    else code = reportStatus(s.io, got.error);
  }
  if (objects.length > 0) s.io.stdout(formatObjects(res.value, objects, format, names.length === 1, all));
  return code;
}

async function cmdWrite(s: Session, verb: 'create' | 'replace' | 'apply'): Promise<number> {
  const targets = await manifestTargets(s);
  if (!targets.ok) return targets.error;
  let code = 0;
  const fieldManager = s.flags['field-manager'] ?? (verb === 'apply' ? 'svcctl' : undefined);
  const opts = fieldManager === undefined ? {} : { fieldManager };
  for (const { r, ref, obj } of targets.value) {
    const name = obj.metadata?.name ?? '';
    let result: Result<KubeObject>;
    if (verb === 'create') result = await s.client.create(ref, obj, opts);
    else if (verb === 'replace') result = await s.client.update(ref, obj, opts);
    else result = await s.client.patch(ref, name, 'apply', obj, { ...opts, ...(s.flags.force ? { force: true } : {}) });
    if (!result.ok) {
      code = reportStatus(s.io, result.error);
      continue;
    }
    const past = verb === 'create' ? 'created' : verb === 'replace' ? 'replaced' : 'serverside-applied';
    s.io.stdout(`${objectName(r, result.value.metadata?.name ?? name)} ${past}\n`);
  }
  return code;
}

async function cmdDelete(s: Session, args: string[]): Promise<number> {
  const pairs: Array<{ r: DiscoveredResource; ref: ResourceRef; name: string }> = [];
  if ((s.flags.filename ?? []).length > 0) {
    const targets = await manifestTargets(s);
    if (!targets.ok) return targets.error;
    for (const t of targets.value) pairs.push({ r: t.r, ref: t.ref, name: t.obj.metadata?.name ?? '' });
  } else {
    const res = await resolveArg(s, args[0]);
    if (!res.ok) return res.error;
    if (args.length < 2) return error(s.io, 'resource(s) were provided, but no name was specified');
    for (const name of args.slice(1)) pairs.push({ r: res.value, ref: refOf(res.value, s.namespace), name });
  }
  let code = 0;
  for (const { r, ref, name } of pairs) {
    const del = await s.client.delete(ref, name);
    if (!del.ok) code = reportStatus(s.io, del.error);
    else s.io.stdout(`${r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase()} "${name}" deleted\n`);
  }
  return code;
}

async function cmdLabel(s: Session, args: string[]): Promise<number> {
  const res = await resolveArg(s, args[0]);
  if (!res.ok) return res.error;
  const name = args[1];
  if (!name) return error(s.io, 'one or more resources must be specified as <resource> <name> or <resource>/<name>');
  const changes = args.slice(2);
  if (changes.length === 0) return error(s.io, 'at least one label update is required');
  const labels: Record<string, string | null> = {};
  for (const c of changes) {
    if (c.endsWith('-') && !c.includes('=')) labels[c.slice(0, -1)] = null;
    else {
      const eq = c.indexOf('=');
      if (eq <= 0) return error(s.io, `invalid label spec: ${c}`);
      labels[c.slice(0, eq)] = c.slice(eq + 1);
    }
  }
  const ref = refOf(res.value, s.namespace);
  const current = await s.client.get(ref, name);
  if (!current.ok) return reportStatus(s.io, current.error);
  const existing = current.value.metadata?.labels ?? {};
  if (!s.flags.overwrite) {
    for (const [k, v] of Object.entries(labels)) {
      if (v !== null && k in existing && existing[k] !== v) {
        return error(s.io, `'${k}' already has a value (${existing[k] ?? ''}), and --overwrite is false`);
      }
    }
  }
  // a resourceVersion precondition makes the check above and the write one atomic step
  const patch = { metadata: { labels, resourceVersion: current.value.metadata?.resourceVersion } };
  const patched = await s.client.patch(ref, name, 'merge', patch);
  if (!patched.ok) return reportStatus(s.io, patched.error);
  s.io.stdout(`${objectName(res.value, name)} labeled\n`);
  return 0;
}

async function cmdApiResources(s: Session): Promise<number> {
  const rs = await resources(s);
  if (!rs.ok) return reportStatus(s.io, rs.error);
  const rows = [...rs.value]
    .sort((a, b) => a.group.localeCompare(b.group) || a.resource.localeCompare(b.resource))
    .map((r) => [r.resource, r.shortNames.join(','), r.group ? `${r.group}/${r.version}` : r.version, String(r.namespaced), r.kind]);
  s.io.stdout(table([['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'], ...rows]));
  return 0;
}

async function cmdVersion(s: Session): Promise<number> {
  s.io.stdout(`Client Version: ${cliVersion}\n`);
  const v = await s.client.request<{ gitVersion?: string }>({ method: 'GET', path: '/version', headers: { accept: 'application/json' } });
  if (!v.ok) return reportStatus(s.io, v.error);
  s.io.stdout(`Server Version: ${v.value.gitVersion ?? 'unknown'}\n`);
  return 0;
}

/** Runs svcctl with `argv` (without the node and script paths); resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        namespace: { type: 'string', short: 'n' },
        output: { type: 'string', short: 'o' },
        filename: { type: 'string', short: 'f', multiple: true },
        'all-namespaces': { type: 'boolean', short: 'A' },
        overwrite: { type: 'boolean' },
        'field-manager': { type: 'string' },
        'server-side': { type: 'boolean' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return error(io, (e as Error).message);
  }
  const flags = parsed.values as Flags;
  const [command, ...args] = parsed.positionals;
  if (flags.help || command === undefined || command === 'help') {
    io.stdout(usage);
    return command === undefined && !flags.help ? 1 : 0;
  }
  const known = ['get', 'create', 'apply', 'replace', 'delete', 'label', 'api-resources', 'version'];
  if (!known.includes(command)) return error(io, `unknown command "${command}" for "svcctl"`);
  const conn = loadKubeconfig({ ...(flags.kubeconfig ? { path: flags.kubeconfig } : {}), ...(flags.context ? { context: flags.context } : {}), env: io.env });
  if (!conn.ok) return error(io, conn.error);
  const client = createClient(conn.value, { userAgent: `svcctl/${cliVersion}`, onWarning: (w) => io.stderr(`Warning: ${w}\n`) });
  const s: Session = { io, client, flags, namespace: flags.namespace ?? conn.value.namespace };
  try {
    switch (command) {
      case 'get': return await cmdGet(s, args);
      case 'create': return await cmdWrite(s, 'create');
      case 'apply': return await cmdWrite(s, 'apply');
      case 'replace': return await cmdWrite(s, 'replace');
      case 'delete': return await cmdDelete(s, args);
      case 'label': return await cmdLabel(s, args);
      case 'api-resources': return await cmdApiResources(s);
      default: return await cmdVersion(s);
    }
  } finally {
    client.close();
  }
}
