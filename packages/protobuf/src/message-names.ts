/**
 * Which protobuf message carries an API kind: `apiVersion` + `kind` → `k8s.io.api.<group>.<version>.<Kind>` (core is
 * `k8s.io.api.core.v1`; apiextensions and apiregistration live in their own repositories' packages), with the meta
 * types (`Status`, `DeleteOptions`, `WatchEvent`, `APIGroupList`, `PartialObjectMetadata`, ...) from
 * `k8s.io.apimachinery.pkg.apis.meta.v1`, which every group version also serves, as kube-apiserver's scheme does.
 */
import { parseApiVersion, type Names } from '@svc-apiserver/api';
import { hasPackage, messageCodec, type MessageCodec } from './generated-messages.js';

/** Proto package of a neutral group key, where it is not `k8s.io.api.<key>`. */
const packageByGroupKey: Readonly<Record<string, string>> = {
  '': 'k8s.io.api.core',
  'rbac.authorization': 'k8s.io.api.rbac',
  'flowcontrol.apiserver': 'k8s.io.api.flowcontrol',
  'internal.apiserver': 'k8s.io.api.apiserverinternal',
  apiextensions: 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions',
  apiregistration: 'k8s.io.kube_aggregator.pkg.apis.apiregistration',
  meta: 'k8s.io.apimachinery.pkg.apis.meta',
};

/** The package of the meta types every group version serves. */
export const metaV1Package = 'k8s.io.apimachinery.pkg.apis.meta.v1';

const identifier = /^[A-Za-z0-9]+$/;

/** The proto package of a group version (`k8s.io.api.core.v1`); undefined for groups without protobuf messages. */
export function packageOf(names: Names, apiVersion: string): string | undefined {
  const { group, version } = parseApiVersion(apiVersion);
  if (!identifier.test(version)) return undefined;
  const key = names.groupKey(group);
  // A dotted group that is not a renamed built-in is a custom group: custom resources have no protobuf form.
  if (key === group && group.includes('.')) return undefined;
  return `${packageByGroupKey[key] ?? `k8s.io.api.${key}`}.${version}`;
}

/** True when the group version has protobuf messages (every built-in group version does). */
export function hasMessages(names: Names, apiVersion: string): boolean {
  const pkg = packageOf(names, apiVersion);
  return pkg !== undefined && hasPackage(pkg);
}

/** The full name of the message of a kind served under `apiVersion` (in the server's flavour); undefined when none. */
export function messageNameFor(names: Names, apiVersion: string, kind: string): string | undefined {
  if (!identifier.test(kind)) return undefined;
  const pkg = packageOf(names, apiVersion);
  if (pkg === undefined) return undefined;
  if (messageCodec(`${pkg}.${kind}`) !== undefined) return `${pkg}.${kind}`;
  return messageCodec(`${metaV1Package}.${kind}`) !== undefined ? `${metaV1Package}.${kind}` : undefined;
}

const kindCodecs = new WeakMap<Names, Map<string, Map<string, MessageCodec | null>>>();

/** The generated codec of a kind served under `apiVersion`; undefined when it has no message type. Memoized. */
export function kindCodec(names: Names, apiVersion: string, kind: string): MessageCodec | undefined {
  let byVersion = kindCodecs.get(names);
  if (byVersion === undefined) kindCodecs.set(names, (byVersion = new Map()));
  let byKind = byVersion.get(apiVersion);
  if (byKind === undefined) {
    // Bounded: versions and kinds come from requests, and most of what clients send has no message.
    if (byVersion.size >= 256) byVersion.clear();
    byVersion.set(apiVersion, (byKind = new Map()));
  }
  let codec = byKind.get(kind);
  if (codec === undefined) {
    if (byKind.size >= 256) byKind.clear();
    const name = messageNameFor(names, apiVersion, kind);
    byKind.set(kind, (codec = name === undefined ? null : messageCodec(name) ?? null));
  }
  return codec ?? undefined;
}
