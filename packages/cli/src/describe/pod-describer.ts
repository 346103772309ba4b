/**
 * kubectl's layout of a Pod (describePod) and of the pod template every workload shows (DescribePodTemplate): the
 * Pod's node, start, status, IPs and controller, its containers with their state, its conditions, volumes, QoS
 * class, node selectors, tolerations and topology spread constraints, then its Events.
 */
import type { Names } from '@svc-apiserver/api';
import { age } from '../age.js';
import { writeContainers } from './container-lines.js';
import { meta, writeControlledBy, writeNameAndNamespace, type Any, type Describer } from './describe-context.js';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';
import { formatLabelSelector, rfc1123z } from './go-format.js';
import { podQOSClass } from './pod-resources.js';
import { writeVolumes } from './volume-sources.js';

/** Items sorted by a string key without reordering equal ones. */
const sortedBy = <T>(items: readonly T[], key: (item: T) => string): T[] => [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** kubectl's describeTopologySpreadConstraints: one line a constraint, by topology key; nothing when none. */
function writeTopologySpreadConstraints(w: DescribeWriter, constraints: readonly Any[] | undefined, space: string): void {
  if (!constraints || constraints.length === 0) return;
  w.write(0, `${space}Topology Spread Constraints:\t`);
  sortedBy(constraints, (c) => String(c.topologyKey ?? '')).forEach((c, i) => {
    if (i !== 0) w.write(0, `${space}\t`);
    const selector = c.labelSelector ? ` for selector ${formatLabelSelector(c.labelSelector)}` : '';
    w.write(0, `${c.topologyKey ?? ''}:${c.whenUnsatisfiable ?? ''} when max skew ${c.maxSkew ?? 0} is exceeded${selector}\n`);
  });
}

/** kubectl's printPodTolerationsMultiline: `key=value:Effect op=Exists for Ns`, by key. */
function writeTolerations(w: DescribeWriter, tolerations: readonly Any[] | undefined): void {
  w.write(0, 'Tolerations:\t');
  if (!tolerations || tolerations.length === 0) {
    w.writeLine('<none>');
    return;
  }
  sortedBy(tolerations, (t) => String(t.key ?? '')).forEach((t, i) => {
    let line = i === 0 ? '' : '\t';
    line += t.key ?? '';
    if (t.value) line += `=${t.value}`;
    if (t.effect) line += `:${t.effect}`;
    // an Exists toleration without a key or effect tolerates everything
    if (t.operator === 'Exists' && !t.value) line += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) line += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${line}\n`);
  });
}

/** kubectl's DescribePodTemplate: the template's labels, annotations, service account, containers and volumes. */
export function writePodTemplate(w: DescribeWriter, template: Any | undefined, names: Names, lastApplied: string): void {
  w.write(0, 'Pod Template:\n');
  if (!template) {
    w.write(1, '<unset>');
    return;
  }
  const spec: Any = template.spec ?? {};
  writeLabels(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0) writeAnnotations(w, '  Annotations', template.metadata.annotations, lastApplied);
  if (spec.serviceAccountName) w.write(1, `Service Account:\t${spec.serviceAccountName}\n`);
  if ((spec.initContainers ?? []).length > 0) writeContainers(w, 'Init Containers', spec.initContainers, undefined, undefined, '  ');
  writeContainers(w, 'Containers', spec.containers, undefined, undefined, '  ');
  writeVolumes(w, spec.volumes, '  ', names);
  writeTopologySpreadConstraints(w, spec.topologySpreadConstraints, '  ');
  if (spec.priorityClassName) w.write(1, `Priority Class Name:\t${spec.priorityClassName}\n`);
}

/** `Title:\n  Type\tStatus\n` and a `type \tstatus \n` line each (a Pod's conditions and readiness gates). */
function writeTypeStatus(w: DescribeWriter, title: string, rows: ReadonlyArray<readonly [string, string]>): void {
  w.write(0, `${title}:\n  Type\tStatus\n`);
  for (const [type, status] of rows) w.write(1, `${type} \t${status} \n`);
}

/** kubectl's Pod layout. */
export const podDescriber: Describer = async (w, ctx) => {
  const pod = ctx.obj as Any;
  const m = meta(ctx.obj);
  const spec: Any = pod.spec ?? {};
  const status: Any = pod.status ?? {};
  writeNameAndNamespace(w, ctx.obj);
  if (spec.priority !== undefined && spec.priority !== null) w.write(0, `Priority:\t${spec.priority}\n`);
  if (spec.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(0, spec.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (status.startTime) w.write(0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  if (m.deletionTimestamp) {
    w.write(0, `Status:\tTerminating (lasts ${age(m.deletionTimestamp)})\n`);
    w.write(0, `Termination Grace Period:\t${m.deletionGracePeriodSeconds ?? 0}s\n`);
  } else {
    w.write(0, `Status:\t${status.phase ?? ''}\n`);
  }
  if (status.reason) w.write(0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(0, `Message:\t${status.message}\n`);
  const seccomp: Any | undefined = spec.securityContext?.seccompProfile;
  if (seccomp) {
    w.write(0, `SeccompProfile:\t${seccomp.type ?? ''}\n`);
    if (seccomp.type === 'Localhost') w.write(0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
  w.write(0, `IP:\t${status.podIP ?? ''}\n`);
  const ips: Any[] = status.podIPs ?? [];
  if (ips.length === 0) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of ips) w.write(1, `IP:\t${ip.ip ?? ''}\n`);
  }
  writeControlledBy(w, ctx.obj);
  if (status.nominatedNodeName) w.write(0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
  if ((spec.initContainers ?? []).length > 0) writeContainers(w, 'Init Containers', spec.initContainers, status.initContainerStatuses, ctx.obj, '');
  writeContainers(w, 'Containers', spec.containers, status.containerStatuses, ctx.obj, '');
  if ((spec.ephemeralContainers ?? []).length > 0) writeContainers(w, 'Ephemeral Containers', spec.ephemeralContainers, status.ephemeralContainerStatuses, ctx.obj, '');
  const conditions: Any[] = status.conditions ?? [];
  if ((spec.readinessGates ?? []).length > 0) {
    writeTypeStatus(w, 'Readiness Gates', (spec.readinessGates as Any[]).map((g) => [
      String(g.conditionType ?? ''), String(conditions.find((c) => c.type === g.conditionType)?.status ?? '<none>'),
    ] as const));
  }
  if (conditions.length > 0) writeTypeStatus(w, 'Conditions', conditions.map((c) => [String(c.type ?? ''), String(c.status ?? '')] as const));
  writeVolumes(w, spec.volumes, '', ctx.names);
  w.write(0, `QoS Class:\t${status.qosClass || podQOSClass(pod)}\n`);
  writeLabels(w, 'Node-Selectors', spec.nodeSelector);
  writeTolerations(w, spec.tolerations);
  writeTopologySpreadConstraints(w, spec.topologySpreadConstraints, '');
  // the Events of a static Pod are about the Pod its node's kubelet runs, whose UID its mirror annotation holds
  const mirror: unknown = m.annotations?.[ctx.names.fromUpstream('kubernetes.io/config.mirror')];
  writeEvents(w, await ctx.events(typeof mirror === 'string' ? mirror : undefined));
};
