/**
 * kubectl's layout of a Node (describeNode): roles, taints, its Lease, conditions, addresses, capacity and
 * allocatable resources, system info, the Pods on it that have not terminated with their requests and limits as
 * shares of what the node can allocate, the allocated-resources totals, then the Events about it (by UID, and by
 * name as the kubelet reports them).
 */
import { age } from '../age.js';
import { core, meta, type Any, type Describer } from './describe-context.js';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';
import { rfc1123z } from './go-format.js';
import { addTotals, podRequestsAndLimits, type ResourceTotals } from './pod-resources.js';
import { canonicalQuantity, formatQuantity, quantityMilliValue, quantityOf, quantityValue, zeroQuantity, type Quantity } from './quantity.js';

/** Taint.ToString(): `key=value:Effect`, the value and effect left out when empty. */
function taintText(t: Any): string {
  const value = t.value ? `=${t.value}` : '';
  if (!t.effect) return t.value ? `${t.key ?? ''}${value}:` : String(t.key ?? '');
  return `${t.key ?? ''}${value}:${t.effect}`;
}

/** kubectl's printNodeTaintsMultiline: taints by effect then key. */
function writeTaints(w: DescribeWriter, taints: readonly Any[] | undefined): void {
  w.write(0, 'Taints:\t');
  if (!taints || taints.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const key = (t: Any): string => `${t.effect ?? ''},${t.key ?? ''}`;
  [...taints].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).forEach((t, i) => w.write(0, `${i === 0 ? '' : '\t'}${taintText(t)}\n`));
}

/**
 * `int64(float64(part) / float64(whole) * 100)`: a whole percent. Go turns the NaN or infinity of a zero
 * denominator into the smallest int64, which kubectl prints for a node that reports no allocatable resources.
 */
function percent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '-9223372036854775808';
  return String(Math.trunc((Number(part) / Number(whole)) * 100));
}

const get = (totals: ResourceTotals, name: string): Quantity => totals.get(name) ?? zeroQuantity;

/** kubectl's describeNodeResource: the non-terminated Pods table and the allocated resources. */
function writeNodeResources(w: DescribeWriter, pods: readonly Any[], node: Any): void {
  w.write(0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const allocatable: Any = Object.keys(node.status?.allocatable ?? {}).length > 0 ? node.status.allocatable : node.status?.capacity ?? {};
  const cpu = quantityMilliValue(quantityOf(allocatable, 'cpu'));
  const memory = quantityValue(quantityOf(allocatable, 'memory'));
  const share = (q: Quantity, name: 'cpu' | 'memory'): string => `${formatQuantity(q)} (${name === 'cpu' ? percent(quantityMilliValue(q), cpu) : percent(quantityValue(q), memory)}%)`;
  const requests: ResourceTotals = new Map();
  const limits: ResourceTotals = new Map();
  for (const pod of pods) {
    const r = podRequestsAndLimits(pod);
    addTotals(requests, r.requests);
    addTotals(limits, r.limits);
    w.write(1, `${pod.metadata?.namespace ?? ''}\t${pod.metadata?.name ?? ''}\t\t${share(get(r.requests, 'cpu'), 'cpu')}\t${share(get(r.limits, 'cpu'), 'cpu')}\t${share(get(r.requests, 'memory'), 'memory')}\t${share(get(r.limits, 'memory'), 'memory')}\t${age(pod.metadata?.creationTimestamp)}\n`);
  }
  w.write(0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(1, 'Resource\tRequests\tLimits\n');
  w.write(1, '--------\t--------\t------\n');
  // the totals' shares are 0% where the node allocates none, unlike the Pods' rows
  const totalShare = (q: Quantity, whole: bigint, milli: boolean): string => `${formatQuantity(q)} (${whole === 0n ? '0' : percent(milli ? quantityMilliValue(q) : quantityValue(q), whole)}%)`;
  const storage = quantityValue(quantityOf(allocatable, 'ephemeral-storage'));
  w.write(1, `cpu\t${totalShare(get(requests, 'cpu'), cpu, true)}\t${totalShare(get(limits, 'cpu'), cpu, true)}\n`);
  w.write(1, `memory\t${totalShare(get(requests, 'memory'), memory, false)}\t${totalShare(get(limits, 'memory'), memory, false)}\n`);
  w.write(1, `ephemeral-storage\t${totalShare(get(requests, 'ephemeral-storage'), storage, false)}\t${totalShare(get(limits, 'ephemeral-storage'), storage, false)}\n`);
  const names = Object.keys(allocatable).sort();
  for (const name of names.filter((n) => n.startsWith('hugepages-'))) {
    const whole = quantityValue(quantityOf(allocatable, name));
    w.write(1, `${name}\t${totalShare(get(requests, name), whole, false)}\t${totalShare(get(limits, name), whole, false)}\n`);
  }
  for (const name of names.filter((n) => !['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(n) && !n.startsWith('hugepages-'))) {
    w.write(1, `${name}\t${formatQuantity(get(requests, name))}\t${formatQuantity(get(limits, name))}\n`);
  }
}

/** kubectl's Node layout. */
export const nodeDescriber: Describer = async (w, ctx) => {
  const node = ctx.obj as Any;
  const m = meta(ctx.obj);
  const name = String(m.name ?? '');
  const pods = await ctx.list(core('pods'), { fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed` });
  // a user may read a node without reading every pod: kubectl says so instead of failing
  if (!pods.ok && pods.error.code !== 403) return pods.error;
  const rolePrefix = ctx.names.fromUpstream('node-role.kubernetes.io/');
  const roleLabel = ctx.names.fromUpstream('kubernetes.io/role');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries((m.labels ?? {}) as Record<string, string>)) {
    if (k.startsWith(rolePrefix) && k.length > rolePrefix.length) roles.add(k.slice(rolePrefix.length));
    else if (k === roleLabel && v !== '') roles.add(v);
  }
  w.write(0, `Name:\t${name}\n`);
  w.write(0, `Roles:\t${roles.size > 0 ? [...roles].sort().join(',') : '<none>'}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  w.write(0, `CreationTimestamp:\t${rfc1123z(m.creationTimestamp)}\n`);
  writeTaints(w, node.spec?.taints);
  w.write(0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
  const lease = await ctx.get({ group: 'coordination', version: 'v1', resource: 'leases' }, ctx.names.name('nodeLeaseNamespace'), name);
  if (lease.ok) {
    const spec: Any = (lease.value as Any).spec ?? {};
    w.write(0, 'Lease:\n');
    w.write(1, `HolderIdentity:\t${spec.holderIdentity ?? '<unset>'}\n`);
    w.write(1, `AcquireTime:\t${spec.acquireTime ? rfc1123z(spec.acquireTime) : '<unset>'}\n`);
    w.write(1, `RenewTime:\t${spec.renewTime ? rfc1123z(spec.renewTime) : '<unset>'}\n`);
  } else {
    w.write(0, `Lease:\tFailed to get lease: ${lease.error.message ?? ''}\n`);
  }
  const conditions: Any[] = node.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conditions) {
      w.write(1, `${c.type ?? ''} \t${c.status ?? ''} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
    }
  }
  w.write(0, 'Addresses:\n');
  for (const a of node.status?.addresses ?? []) w.write(1, `${a.type ?? ''}:\t${a.address ?? ''}\n`);
  for (const [title, list] of [['Capacity', node.status?.capacity], ['Allocatable', node.status?.allocatable]] as const) {
    const keys = Object.keys((list ?? {}) as object).sort();
    if (keys.length === 0) continue;
    w.write(0, `${title}:\n`);
    for (const k of keys) w.write(0, `  ${k}:\t${canonicalQuantity((list as Any)[k])}\n`);
  }
  const info: Any = node.status?.nodeInfo ?? {};
  w.write(0, 'System Info:\n');
  for (const [label, field] of [
    ['Machine ID', 'machineID'], ['System UUID', 'systemUUID'], ['Boot ID', 'bootID'], ['Kernel Version', 'kernelVersion'], ['OS Image', 'osImage'],
    ['Operating System', 'operatingSystem'], ['Architecture', 'architecture'], ['Container Runtime Version', 'containerRuntimeVersion'],
    ['Kubelet Version', 'kubeletVersion'], ['Kube-Proxy Version', 'kubeProxyVersion'],
  ] as const) w.write(0, `  ${label}:\t${info[field] ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if ((node.spec?.podCIDRs ?? []).length > 0) w.write(0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
  if (node.spec?.providerID) w.write(0, `ProviderID:\t${node.spec.providerID}\n`);
  if (pods.ok) writeNodeResources(w, pods.value as Any[], node);
  else w.write(0, 'Pods:\tnot authorized\n');
  writeEvents(w, [...await ctx.events(), ...await ctx.events(name)]);
};
