/**
 * kubectl's layouts of the workload controllers: Deployment (with the old and new ReplicaSets it owns, found as
 * kubectl finds them), ReplicaSet, StatefulSet and DaemonSet (with the phases of the Pods they control, counted
 * from the listed Pods), Job and CronJob (with its active Jobs). Each shows its pod template as kubectl's
 * DescribePodTemplate does, then its Events.
 */
import { jsonEquivalent, type KubeObject, type Status } from '@svc-apiserver/api';
import { humanDuration } from '../age.js';
import { controllerOf, core, header, meta, writeControlledBy, writeNameAndNamespace, type Any, type DescribeContext, type Describer } from './describe-context.js';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';
import { formatLabelSelector, formatLabels, intOrString, printBoolPtr, rfc1123z, selectorString } from './go-format.js';
import { writePodTemplate } from './pod-describer.js';
import { canonicalQuantity } from './quantity.js';

/** Pod phases of a controller's Pods (getPodStatusForController). */
interface PodPhases {
  running: number;
  waiting: number;
  succeeded: number;
  failed: number;
}

/**
 * The phases of the Pods that `selector` selects in the controller's namespace and whose controller it is; the
 * Status of a refused list.
 */
async function podPhases(ctx: DescribeContext, selector: unknown): Promise<PodPhases | Status> {
  const listed = await ctx.list(core('pods'), { namespace: meta(ctx.obj).namespace, labelSelector: selectorString(selector) ?? '' });
  if (!listed.ok) return listed.error;
  const phases: PodPhases = { running: 0, waiting: 0, succeeded: 0, failed: 0 };
  for (const pod of listed.value) {
    if (controllerOf(pod)?.uid !== meta(ctx.obj).uid) continue;
    switch ((pod as Any).status?.phase) {
      case 'Running': phases.running++; break;
      case 'Pending': phases.waiting++; break;
      case 'Succeeded': phases.succeeded++; break;
      case 'Failed': phases.failed++; break;
    }
  }
  return phases;
}

const phasesText = (p: PodPhases): string => `${p.running} Running / ${p.waiting} Waiting / ${p.succeeded} Succeeded / ${p.failed} Failed`;

/** `Conditions:` as a controller's Type/Status/Reason table (Deployments and ReplicaSets). */
function writeControllerConditions(w: DescribeWriter, conditions: readonly Any[] | undefined): void {
  if (!conditions || conditions.length === 0) return;
  w.write(0, 'Conditions:\n  Type\tStatus\tReason\n');
  w.write(1, '----\t------\t------\n');
  for (const c of conditions) w.write(1, `${c.type ?? ''} \t${c.status ?? ''}\t${c.reason ?? ''}\n`);
}

/** `Selector:` as `%s` of the selector LabelSelectorAsSelector makes (or why it cannot be made). */
const selectorLine = (selector: unknown): string => {
  const text = selectorString(selector);
  return text === undefined ? 'Selector:\tFailed to get selector: invalid label selector\n' : `Selector:\t${text}\n`;
};

/** A template without the pod-template-hash label, empty maps and lists dropped (apiequality's nil-equals-empty). */
function comparableTemplate(template: unknown): unknown {
  const strip = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => strip(x, ''));
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (path === 'metadata.labels' && k === 'pod-template-hash') continue;
      const y = strip(x, path === '' ? k : `${path}.${k}`);
      if (y === null || (Array.isArray(y) && y.length === 0) || (typeof y === 'object' && y !== null && Object.keys(y).length === 0)) continue;
      out[k] = y;
    }
    return out;
  };
  return strip(template, '');
}

/** The ReplicaSets a Deployment controls, split into the new one (its template's) and the old ones with replicas. */
async function deploymentReplicaSets(ctx: DescribeContext): Promise<{ newRS?: Any; oldRSs: Any[] } | undefined> {
  const d = ctx.obj as Any;
  const listed = await ctx.list({ group: 'apps', version: 'v1', resource: 'replicasets' }, { namespace: meta(ctx.obj).namespace, labelSelector: selectorString(d.spec?.selector) ?? '' });
  if (!listed.ok) return undefined;
  const owned = (listed.value as Any[]).filter((rs) => controllerOf(rs as KubeObject)?.uid === meta(ctx.obj).uid);
  owned.sort((a, b) => {
    const ta = Date.parse(a.metadata?.creationTimestamp ?? '');
    const tb = Date.parse(b.metadata?.creationTimestamp ?? '');
    return ta !== tb ? ta - tb : String(a.metadata?.name) < String(b.metadata?.name) ? -1 : 1;
  });
  const template = comparableTemplate(d.spec?.template);
  const newRS = owned.find((rs) => jsonEquivalent(comparableTemplate(rs.spec?.template), template));
  const oldRSs = owned.filter((rs) => rs !== newRS && (rs.spec?.replicas ?? 1) !== 0);
  return { ...(newRS ? { newRS } : {}), oldRSs };
}

/** kubectl's printReplicaSetsByLabels: `name (current/desired replicas created)`, `<none>` when there is none. */
const replicaSetsText = (sets: readonly Any[]): string =>
  sets.map((rs) => `${rs.metadata?.name ?? ''} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 1} replicas created)`).join(', ') || '<none>';

/** kubectl's Deployment layout. */
export const deploymentDescriber: Describer = async (w, ctx) => {
  const d = ctx.obj as Any;
  const spec: Any = d.spec ?? {};
  const st: Any = d.status ?? {};
  const m = meta(ctx.obj);
  writeNameAndNamespace(w, ctx.obj);
  w.write(0, `CreationTimestamp:\t${rfc1123z(m.creationTimestamp)}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  w.write(0, selectorLine(spec.selector));
  w.write(0, `Replicas:\t${spec.replicas ?? 1} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`);
  w.write(0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  w.write(0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  const ru: Any | undefined = spec.strategy?.rollingUpdate;
  if (ru) w.write(0, `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`);
  writePodTemplate(w, spec.template, ctx.names, ctx.lastApplied);
  writeControllerConditions(w, st.conditions);
  const sets = await deploymentReplicaSets(ctx);
  if (sets && (sets.oldRSs.length > 0 || sets.newRS)) {
    w.write(0, `OldReplicaSets:\t${replicaSetsText(sets.oldRSs)}\n`);
    w.write(0, `NewReplicaSet:\t${replicaSetsText(sets.newRS ? [sets.newRS] : [])}\n`);
  }
  writeEvents(w, await ctx.events());
};

/** kubectl's ReplicaSet layout. */
export const replicaSetDescriber: Describer = async (w, ctx) => {
  const rs = ctx.obj as Any;
  const m = meta(ctx.obj);
  writeNameAndNamespace(w, ctx.obj);
  w.write(0, `Selector:\t${formatLabelSelector(rs.spec?.selector)}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  writeControlledBy(w, ctx.obj);
  w.write(0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 1} desired\n`);
  const phases = await podPhases(ctx, rs.spec?.selector);
  w.write(0, `Pods Status:\t${'code' in phases ? `error in fetching pods: ${phases.message ?? ''}` : phasesText(phases)}\n`);
  writePodTemplate(w, rs.spec?.template, ctx.names, ctx.lastApplied);
  writeControllerConditions(w, rs.status?.conditions);
  writeEvents(w, await ctx.events());
};

/** kubectl's describeVolumeClaimTemplates: a StatefulSet's claim templates. */
function writeVolumeClaimTemplates(w: DescribeWriter, templates: readonly Any[] | undefined, ctx: DescribeContext): void {
  if (!templates || templates.length === 0) {
    w.write(0, 'Volume Claims:\t<none>\n');
    return;
  }
  w.write(0, 'Volume Claims:\n');
  for (const pvc of templates) {
    w.write(1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    w.write(1, `StorageClass:\t${pvc.metadata?.annotations?.[ctx.names.fromUpstream('volume.beta.kubernetes.io/storage-class')] ?? pvc.spec?.storageClassName ?? ''}\n`);
    writeLabels(w, 'Labels', pvc.metadata?.labels, '  ');
    writeLabels(w, 'Annotations', pvc.metadata?.annotations, '  ');
    const storage: unknown = pvc.spec?.resources?.requests?.storage;
    w.write(1, `Capacity:\t${storage === undefined ? '<default>' : canonicalQuantity(storage)}\n`);
    w.write(1, `Access Modes:\t[${(pvc.spec?.accessModes ?? []).join(' ')}]\n`);
  }
}

/** kubectl's StatefulSet layout. */
export const statefulSetDescriber: Describer = async (w, ctx) => {
  const ss = ctx.obj as Any;
  const spec: Any = ss.spec ?? {};
  const m = meta(ctx.obj);
  const phases = await podPhases(ctx, spec.selector);
  if ('code' in phases) return phases;
  writeNameAndNamespace(w, ctx.obj);
  w.write(0, `CreationTimestamp:\t${rfc1123z(m.creationTimestamp)}\n`);
  w.write(0, selectorLine(spec.selector));
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  w.write(0, `Replicas:\t${spec.replicas ?? 1} desired | ${ss.status?.replicas ?? 0} total\n`);
  w.write(0, `Update Strategy:\t${spec.updateStrategy?.type ?? ''}\n`);
  const ru: Any | undefined = spec.updateStrategy?.rollingUpdate;
  if (ru && ru.partition !== undefined && ru.partition !== null) {
    w.write(1, `Partition:\t${ru.partition}\n`);
    if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) w.write(1, `MaxUnavailable:\t${intOrString(ru.maxUnavailable)}\n`);
  }
  w.write(0, `Pods Status:\t${phasesText(phases)}\n`);
  writePodTemplate(w, spec.template, ctx.names, ctx.lastApplied);
  writeVolumeClaimTemplates(w, spec.volumeClaimTemplates, ctx);
  writeEvents(w, await ctx.events());
};

/** kubectl's DaemonSet layout (it has no Namespace line). */
export const daemonSetDescriber: Describer = async (w, ctx) => {
  const ds = ctx.obj as Any;
  const spec: Any = ds.spec ?? {};
  const st: Any = ds.status ?? {};
  const m = meta(ctx.obj);
  const phases = await podPhases(ctx, spec.selector);
  if ('code' in phases) return phases;
  w.write(0, `Name:\t${m.name ?? ''}\n`);
  w.write(0, selectorLine(spec.selector));
  w.write(0, `Node-Selector:\t${formatLabels(spec.template?.spec?.nodeSelector)}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  w.write(0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
  w.write(0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
  w.write(0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
  w.write(0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
  w.write(0, `Pods Status:\t${phasesText(phases)}\n`);
  writePodTemplate(w, spec.template, ctx.names, ctx.lastApplied);
  writeEvents(w, await ctx.events());
};

/** kubectl's capIndexesListOrNone: completed indexes cut after the first comma past 50 characters. */
function capIndexes(indexes: string | undefined): string {
  if (!indexes) return '<none>';
  const comma = indexes.indexOf(',', 50);
  return comma < 0 ? indexes : `${indexes.slice(0, comma + 1)}...`;
}

/** kubectl's Job layout. */
export const jobDescriber: Describer = async (w, ctx) => {
  const job = ctx.obj as Any;
  const spec: Any = job.spec ?? {};
  const st: Any = job.status ?? {};
  const m = meta(ctx.obj);
  writeNameAndNamespace(w, ctx.obj);
  w.write(0, selectorLine(spec.selector));
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  writeControlledBy(w, ctx.obj);
  if (spec.parallelism !== undefined && spec.parallelism !== null) w.write(0, `Parallelism:\t${spec.parallelism}\n`);
  w.write(0, `Completions:\t${spec.completions ?? '<unset>'}\n`);
  if (spec.completionMode) w.write(0, `Completion Mode:\t${spec.completionMode}\n`);
  if (st.startTime) w.write(0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
  if (st.completionTime) w.write(0, `Completed At:\t${rfc1123z(st.completionTime)}\n`);
  if (st.startTime && st.completionTime) w.write(0, `Duration:\t${humanDuration(Date.parse(st.completionTime) - Date.parse(st.startTime))}\n`);
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) w.write(0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
  const ready = st.ready === undefined || st.ready === null ? '' : ` (${st.ready} Ready)`;
  w.write(0, `Pods Statuses:\t${st.active ?? 0} Active${ready} / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
  if (spec.completionMode === 'Indexed') w.write(0, `Completed Indexes:\t${capIndexes(st.completedIndexes)}\n`);
  writePodTemplate(w, spec.template, ctx.names, ctx.lastApplied);
  writeEvents(w, await ctx.events());
};

/** kubectl's CronJob layout: the schedule and limits, the job template, and the Jobs it runs now. */
export const cronJobDescriber: Describer = async (w, ctx) => {
  const cj = ctx.obj as Any;
  const spec: Any = cj.spec ?? {};
  const unset = (v: unknown, suffix = ''): string => (v === undefined || v === null ? '<unset>' : `${String(v)}${suffix}`);
  header(w, ctx, true);
  w.write(0, `Schedule:\t${spec.schedule ?? ''}\n`);
  w.write(0, `Concurrency Policy:\t${spec.concurrencyPolicy ?? ''}\n`);
  w.write(0, `Suspend:\t${printBoolPtr(spec.suspend)}\n`);
  w.write(0, `Successful Job History Limit:\t${unset(spec.successfulJobsHistoryLimit)}\n`);
  w.write(0, `Failed Job History Limit:\t${unset(spec.failedJobsHistoryLimit)}\n`);
  w.write(0, `Starting Deadline Seconds:\t${unset(spec.startingDeadlineSeconds, 's')}\n`);
  const jobSpec: Any = spec.jobTemplate?.spec ?? {};
  w.write(0, jobSpec.selector ? selectorLine(jobSpec.selector) : 'Selector:\t<unset>\n');
  w.write(0, `Parallelism:\t${unset(jobSpec.parallelism)}\n`);
  w.write(0, `Completions:\t${unset(jobSpec.completions)}\n`);
  if (jobSpec.activeDeadlineSeconds !== undefined && jobSpec.activeDeadlineSeconds !== null) w.write(0, `Active Deadline Seconds:\t${jobSpec.activeDeadlineSeconds}s\n`);
  writePodTemplate(w, jobSpec.template, ctx.names, ctx.lastApplied);
  const last: unknown = cj.status?.lastScheduleTime;
  w.write(0, `Last Schedule Time:\t${last ? rfc1123z(last) : '<unset>'}\n`);
  const active: Any[] = cj.status?.active ?? [];
  w.write(0, 'Active Jobs:\t');
  w.writeLine(active.length === 0 ? '<none>' : active.map((j) => j.name ?? '').join(', '));
  writeEvents(w, await ctx.events());
};
