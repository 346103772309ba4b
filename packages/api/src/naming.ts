/**
 * The naming table: every name the spec renames from Kubernetes, with its value in each flavour.
 *
 * The `svc` flavour (default) is the spec's; the `k8s` flavour restores Kubernetes' names so stock kubectl,
 * client-go and @kubernetes/client-node work unchanged. No other module spells a renamed name: code refers to
 * groups by their neutral key (the upstream group without its `.k8s.io` suffix) and to other names through
 * {@link Names}. Unchanged in both flavours: `x-kubernetes-*` schema extensions, the protobuf magic `k8s\0`,
 * `system:` users and groups.
 */

/** A flavour of names. */
export type Flavour = 'svc' | 'k8s';

/** Every flavour, default first. */
export const flavours: readonly Flavour[] = ['svc', 'k8s'];

/** A name in both flavours. */
type Pair = { readonly svc: string; readonly k8s: string };

/** Upstream group suffix and its renamed form: `*.k8s.io` groups become `*.svc.io`. */
const groupSuffix: Pair = { svc: '.svc.io', k8s: '.k8s.io' };

/** Label, annotation, finalizer and secret-type domain: `kubernetes.io` becomes `svc.io`. */
const domain: Pair = { svc: 'svc.io', k8s: 'kubernetes.io' };

/** Names renamed one by one (not by a suffix rule). */
const table = {
  systemNamespace: { svc: 'svc-system', k8s: 'kube-system' },
  publicNamespace: { svc: 'svc-public', k8s: 'kube-public' },
  nodeLeaseNamespace: { svc: 'svc-node-lease', k8s: 'kube-node-lease' },
  protobufMediaType: { svc: 'application/vnd.svc.protobuf', k8s: 'application/vnd.kubernetes.protobuf' },
  /** The finalizer the namespace controller puts in `spec.finalizers` of every namespace. */
  namespaceFinalizer: { svc: 'svc', k8s: 'kubernetes' },
  signerApiClient: { svc: 'svc.io/api-client', k8s: 'kubernetes.io/kube-apiserver-client' },
  signerApiClientNode: { svc: 'svc.io/api-client-node', k8s: 'kubernetes.io/kube-apiserver-client-kubelet' },
  signerNodeServing: { svc: 'svc.io/node-serving', k8s: 'kubernetes.io/kubelet-serving' },
  signerLegacyUnknown: { svc: 'svc.io/legacy-unknown', k8s: 'kubernetes.io/legacy-unknown' },
  rootCaConfigMap: { svc: 'svc-root-ca.crt', k8s: 'kube-root-ca.crt' },
  /** Where the ServiceAccount admission plugin mounts a Pod's service account token, CA and namespace. */
  serviceAccountMountPath: { svc: '/var/run/secrets/svc.io/serviceaccount', k8s: '/var/run/secrets/kubernetes.io/serviceaccount' },
  execInfoEnv: { svc: 'SVC_EXEC_INFO', k8s: 'KUBERNETES_EXEC_INFO' },
  /** The annotation of the BOOKMARK that ends a watch's initial events (WatchList, `sendInitialEvents=true`). */
  initialEventsEndAnnotation: { svc: 'svc.io/initial-events-end', k8s: 'k8s.io/initial-events-end' },
  /** Prefix of the x-kubernetes-group-version-kind style field managers and user agents the server reports. */
  serverName: { svc: 'svc-apiserver', k8s: 'kube-apiserver' },
  /**
   * The controller manager's name: the Lease in the system namespace whose holder runs the controllers
   * (kube-controller-manager `--leader-elect`), and the field manager its controllers' writes record.
   */
  controllerManagerName: { svc: 'svc-controller-manager', k8s: 'kube-controller-manager' },
} as const satisfies Record<string, Pair>;

/** Keys of names renamed one by one. */
export type NameKey = keyof typeof table;

/**
 * Neutral keys of the upstream API groups that end in `.k8s.io` (1.27 built-ins), the key being the group without
 * that suffix. Groups outside this list (`apps`, `batch`, `autoscaling`, `policy`, custom groups) keep their names.
 * The metrics groups are served by add-on servers, not this one: they are listed so that policy naming them (the
 * rules of the autoscaler controller role) is renamed too.
 */
export const renamedGroupKeys = [
  'admission',
  'admissionregistration',
  // Configuration file groups of kube-apiserver and its admission plugins (not served; read from files).
  'apiserver',
  'apiserver.config',
  'eventratelimit.admission',
  'pod-security.admission.config',
  'podtolerationrestriction.admission',
  'resourcequota.admission',
  'apiextensions',
  'apiregistration',
  'apidiscovery',
  // The audit policy file's group (not served).
  'audit',
  'authentication',
  'authorization',
  'certificates',
  // The ExecCredential group of client credential plugins (read from a plugin's output, not served).
  'client.authentication',
  'coordination',
  'custom.metrics',
  'discovery',
  'events',
  'external.metrics',
  'flowcontrol.apiserver',
  'imagepolicy',
  'internal.apiserver',
  'meta',
  'metrics',
  'networking',
  'node',
  'rbac.authorization',
  'resource',
  'scheduling',
  'storage',
] as const;

const renamedKeySet: ReadonlySet<string> = new Set(renamedGroupKeys);

/** The names of one flavour. */
export interface Names {
  readonly flavour: Flavour;
  /** A name renamed one by one. */
  readonly name: (key: NameKey) => string;
  /** The served group for a neutral group key (`coordination` → `coordination.svc.io`); `''` is the core group. */
  readonly group: (key: string) => string;
  /** The neutral key of a served group (`coordination.svc.io` → `coordination`); other groups map to themselves. */
  readonly groupKey: (group: string) => string;
  /** A name in the label/annotation/finalizer/secret-type domain: `domain('service-account-token')` → `svc.io/service-account-token`; `domain('not-ready', 'node')` → `node.svc.io/not-ready`. */
  readonly domain: (path: string, subdomain?: string) => string;
  /** Rewrites a Kubernetes name found in upstream data (group, label key, media type) into this flavour. */
  readonly fromUpstream: (upstream: string) => string;
  /** The namespaces that can never be deleted: `default`, the system and public namespaces. */
  readonly immortalNamespaces: readonly string[];
}

function pick(pair: Pair, flavour: Flavour): string {
  return pair[flavour];
}

/** The neutral key of an upstream (`*.k8s.io`) group, or the group itself. */
export function upstreamGroupKey(group: string): string {
  if (group.endsWith(groupSuffix.k8s)) {
    const key = group.slice(0, -groupSuffix.k8s.length);
    if (renamedKeySet.has(key)) return key;
  }
  return group;
}

/** Builds the names of a flavour. */
export function namesFor(flavour: Flavour): Names {
  const suffix = pick(groupSuffix, flavour);
  const dom = pick(domain, flavour);
  const upstreamByValue = new Map<string, string>();
  for (const pair of Object.values(table)) upstreamByValue.set(pair.k8s, pair[flavour]);
  const group = (key: string): string => (renamedKeySet.has(key) ? key + suffix : key);
  const groupKey = (served: string): string => {
    if (served.endsWith(suffix)) {
      const key = served.slice(0, -suffix.length);
      if (renamedKeySet.has(key)) return key;
    }
    return served;
  };
  const fromUpstream = (upstream: string): string => {
    const direct = upstreamByValue.get(upstream);
    if (direct !== undefined) return direct;
    const key = upstreamGroupKey(upstream);
    if (key !== upstream) return group(key);
    // label/annotation keys in the kubernetes.io domain, with or without a subdomain
    const m = /^((?:[a-z0-9-]+\.)*)kubernetes\.io(\/.*)?$/.exec(upstream);
    if (m) return `${m[1] ?? ''}${dom}${m[2] ?? ''}`;
    return upstream;
  };
  return {
    flavour,
    name: (key) => pick(table[key], flavour),
    group,
    groupKey,
    domain: (path, subdomain) => `${subdomain ? subdomain + '.' : ''}${dom}/${path}`,
    fromUpstream,
    immortalNamespaces: ['default', pick(table.systemNamespace, flavour), pick(table.publicNamespace, flavour)],
  };
}

/** Parses a `--flavour` value. */
export function parseFlavour(value: string): Flavour | undefined {
  return (flavours as readonly string[]).includes(value) ? (value as Flavour) : undefined;
}
