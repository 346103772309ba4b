/**
 * What a kind's describer works with: the object, the flavour's names, reads of the other objects kubectl's
 * describers look up (pods of a controller, ReplicaSets of a Deployment, a node's Lease, a Service's Endpoints),
 * the Events about an object, and the header most layouts open with.
 */
import type { KubeObject, Names, Result, Status } from '@svc-apiserver/api';
import { writeAnnotations, writeLabels, type DescribeWriter } from './describe-writer.js';

/** Which objects a list reads. */
export interface DescribeListOptions {
  /** The namespace; undefined for every namespace (or a cluster-scoped resource). */
  readonly namespace?: string | undefined;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/** The address of a resource: its neutral group key (`''`, `apps`, `coordination`), version and plural. */
export interface DescribeResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** What a describer may read besides the object. */
export interface DescribeContext {
  readonly obj: KubeObject;
  /** The names of the server's flavour (groups, the node lease namespace, well-known label domains). */
  readonly names: Names;
  /** The last-applied annotation of the server's flavour, which describe leaves out. */
  readonly lastApplied: string;
  /** The Events whose involved object has `uid` (the object's own by default). */
  events(uid?: string): Promise<KubeObject[]>;
  /** The objects of a resource. */
  list(resource: DescribeResource, options: DescribeListOptions): Promise<Result<KubeObject[]>>;
  /** One object of a resource. */
  get(resource: DescribeResource, namespace: string | undefined, name: string): Promise<Result<KubeObject>>;
}

/**
 * A kind's layout. It may end in a Status instead, where kubectl's describer fails (a read it needs was refused);
 * nothing is printed for the object then.
 */
export type Describer = (w: DescribeWriter, ctx: DescribeContext) => Promise<Status | void>;

/** An object's fields as the describers read them: the server's JSON, whose shape its schema guarantees. */
export type Any = Record<string, any>;

/** An object's metadata, empty when absent. */
export const meta = (o: KubeObject): Any => o.metadata ?? {};

/** Objects in name order. */
export const byName = <T extends KubeObject>(objects: readonly T[]): T[] => [...objects].sort((a, b) => {
  const x = String(meta(a).name ?? '');
  const y = String(meta(b).name ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
});

/** `Name` and `Namespace`: the lines nearly every layout opens with. */
export function writeNameAndNamespace(w: DescribeWriter, obj: KubeObject): void {
  w.write(0, `Name:\t${obj.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${obj.metadata?.namespace ?? ''}\n`);
}

/** `Name`, `Namespace` (for namespaced kinds), `Labels` and `Annotations`: how most layouts open. */
export function header(w: DescribeWriter, ctx: DescribeContext, namespaced: boolean): void {
  const m = meta(ctx.obj);
  if (namespaced) writeNameAndNamespace(w, ctx.obj);
  else w.write(0, `Name:\t${m.name ?? ''}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
}

/** `Controlled By:\tKind/name` when the object has a controller (kubectl's printController). */
export function writeControlledBy(w: DescribeWriter, obj: KubeObject): void {
  const owner = controllerOf(obj);
  if (owner) w.write(0, `Controlled By:\t${owner.kind}/${owner.name}\n`);
}

/** The owner reference marked as controller (metav1.GetControllerOf). */
export function controllerOf(obj: KubeObject): { kind: string; name: string; uid: string } | undefined {
  const refs: Any[] = meta(obj).ownerReferences ?? [];
  return refs.find((r) => r.controller === true) as { kind: string; name: string; uid: string } | undefined;
}

/** The core group's resources. */
export const core = (resource: string): DescribeResource => ({ group: '', version: 'v1', resource });
