/**
 * What every svcctl command works with: the output sinks, the parsed flags, one client, discovery (read once per
 * run, as kubectl's cached RESTMapper), the flavour the server speaks, and kubectl's error printing.
 */
import { fail, namesFor, ok, type Flavour, type Names, type Result, type Status } from '@svc-apiserver/api';
import { discoverResources, resolveResource, type DiscoveredResource, type ResourceRef, type RestClient } from '@svc-apiserver/client';
import type { Flags } from './flags.js';

/** Where svcctl writes and what it reads. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads standard input (for `-f -`). */
  readonly readStdin: () => Promise<string>;
  readonly env: NodeJS.ProcessEnv;
  /** Ends a long-running command (`get -w`, `wait`) early; Ctrl-C in the executable. */
  readonly signal?: AbortSignal;
}

/** The context of one command. */
export interface Session {
  readonly io: CliIo;
  readonly client: RestClient;
  readonly flags: Flags;
  /** `-n`, else the context's namespace. */
  readonly namespace: string;
  resources?: DiscoveredResource[];
  names?: Names;
}

/** Prints a failure as kubectl does: `Error from server (NotFound): ...`, or `error: ...` for local failures. */
export function reportStatus(io: CliIo, status: Status): number {
  if (status.code === 0) io.stderr(`error: ${status.message ?? 'unknown error'}\n`);
  else io.stderr(`Error from server${status.reason ? ` (${status.reason})` : ''}: ${status.message ?? ''}\n`);
  return 1;
}

/** Prints a local failure as kubectl does (`error: ...`) and gives its exit code. */
export function error(io: CliIo, message: string): number {
  io.stderr(`error: ${message}\n`);
  return 1;
}

/** Every resource the server serves (preferred versions first), discovered once per run. */
export async function resources(s: Session): Promise<Result<DiscoveredResource[]>> {
  if (s.resources) return ok(s.resources);
  const r = await discoverResources(s.client);
  if (r.ok) s.resources = r.value;
  return r;
}

/**
 * The flavour the server speaks, read from its groups: a server serving the svc flavour's RBAC group speaks `svc`, any other
 * (kube-apiserver, or this server with `--flavour=k8s`) `k8s`. Renamed names (annotations, signers) follow it.
 */
export async function serverNames(s: Session): Promise<Result<Names>> {
  if (s.names) return ok(s.names);
  const rs = await resources(s);
  if (!rs.ok) return rs;
  const svcRbac = namesFor('svc').group('rbac.authorization');
  const flavour: Flavour = rs.value.some((r) => r.group === svcRbac) ? 'svc' : 'k8s';
  s.names = namesFor(flavour);
  return ok(s.names);
}

/** The path of a resource in a namespace (or cluster-wide when `namespace` is undefined or it is cluster-scoped). */
export function refOf(r: DiscoveredResource, namespace: string | undefined): ResourceRef {
  const ref: ResourceRef = { group: r.group, version: r.version, resource: r.resource };
  return r.namespaced && namespace !== undefined ? { ...ref, namespace } : ref;
}

/** The resource a command names; the exit code once a failure is reported. */
export async function resolveArg(s: Session, arg: string | undefined): Promise<Result<DiscoveredResource, number>> {
  if (!arg) return fail(error(s.io, 'you must specify the type of resource to get. Use "svcctl api-resources" for a complete list of supported resources.'));
  const rs = await resources(s);
  if (!rs.ok) return fail(reportStatus(s.io, rs.error));
  const r = resolveResource(rs.value, arg);
  if (!r) return fail(error(s.io, `the server doesn't have a resource type "${arg}"`));
  return ok(r);
}

/** One named object a command acts on. */
export interface NamedTarget {
  readonly r: DiscoveredResource;
  readonly name: string;
  /** The object's own namespace (objects from files or lists); the command's otherwise. */
  readonly ns?: string | undefined;
}

/** The types and objects of a command line, as kubectl's resource builder reads them. */
export interface NamedTargets {
  /** The types of the `TYPE[,TYPE...]` argument, each once (none in `TYPE/NAME` form). */
  readonly types: DiscoveredResource[];
  /** The named objects; none when the command acts on every object of `types`. */
  readonly targets: NamedTarget[];
}

/** kubectl's SplitResourceArgument: the comma-separated types of an argument, each once, in order. */
function splitTypes(arg: string): string[] {
  return [...new Set(arg.split(','))];
}

/**
 * The objects named as kubectl takes them (ResourceTypeOrNameArgs): `TYPE NAME...`, `TYPE/NAME...` (types may
 * differ), `TYPE1,TYPE2 NAME...` (each name of each type), or `TYPE1,TYPE2` alone (every object of those types). At
 * least one name unless `allowNone`.
 */
export async function namedTargets(s: Session, args: readonly string[], allowNone = false): Promise<Result<NamedTargets, number>> {
  // kubectl's normalizeMultipleResourcesArgs: `a,b x y` is `a/x a/y b/x b/y`
  const types = args[0] === undefined ? [] : splitTypes(args[0]);
  const list = args.length >= 2 && types.length > 1 ? types.flatMap((t) => args.slice(1).map((name) => `${t}/${name}`)) : args;
  const slashed = list.filter((a) => a.includes('/')).length;
  if (slashed > 0 && slashed !== list.length) {
    return fail(error(s.io, "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'svcctl get resource/<resource_name>' instead of 'svcctl get resource resource/<resource_name>'"));
  }
  const resolve = async (type: string): Promise<Result<DiscoveredResource, number>> => {
    const rs = await resources(s);
    if (!rs.ok) return fail(reportStatus(s.io, rs.error));
    const r = resolveResource(rs.value, type);
    return r ? ok(r) : fail(error(s.io, `the server doesn't have a resource type "${type}"`));
  };
  const targets: NamedTarget[] = [];
  if (slashed > 0) {
    for (const a of list) {
      const parts = a.split('/');
      if (parts.length !== 2) return fail(error(s.io, 'arguments in resource/name form may not have more than one slash'));
      const [type = '', name = ''] = parts;
      if (type === '' || name === '' || splitTypes(type).length !== 1) return fail(error(s.io, 'arguments in resource/name form must have a single resource and name'));
      const res = await resolve(type);
      if (!res.ok) return res;
      targets.push({ r: res.value, name });
    }
    return ok({ types: [], targets });
  }
  if (args[0] === undefined) {
    const res = await resolveArg(s, undefined);
    return res.ok ? ok({ types: [res.value], targets }) : res;
  }
  const resolved: DiscoveredResource[] = [];
  for (const type of types) {
    const res = await resolve(type);
    if (!res.ok) return res;
    // two spellings of one resource (`cm,configmaps`) name it once
    if (!resolved.some((r) => r.group === res.value.group && r.resource === res.value.resource)) resolved.push(res.value);
  }
  const [only] = resolved;
  if (only !== undefined) for (const name of args.slice(1)) targets.push({ r: only, name });
  if (targets.length === 0 && !allowNone) return fail(error(s.io, 'resource(s) were provided, but no name was specified'));
  return ok({ types: resolved, targets });
}

/** `configmap/x`, `lease.coordination.svc.io/x`: kubectl's `-o name` form. */
export function objectName(r: Pick<DiscoveredResource, 'kind' | 'group'>, name: string): string {
  const kind = r.kind.toLowerCase();
  return r.group ? `${kind}.${r.group}/${name}` : `${kind}/${name}`;
}

/** `configmap "x"`: how kubectl names an object in `deleted` lines. */
export function quotedName(r: Pick<DiscoveredResource, 'kind' | 'group'>, name: string): string {
  const kind = r.kind.toLowerCase();
  return `${r.group ? `${kind}.${r.group}` : kind} "${name}"`;
}
