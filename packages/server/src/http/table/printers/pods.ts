/** Pods: Name, Ready, Status, Restarts, Age; wide: IP, Node, Nominated Node, Readiness Gates (printPod, 1.27). */
import { ageColumn, docColumn, nameColumn, type RowCondition, type TablePrinter } from '../printer.js';
import { get, list, num, since, str } from '../format.js';

const core = 'io.k8s.api.core.v1';

/** The pod's aggregate status, ready count and restarts, as `kubectl get pods` shows them. */
function podSummary(pod: Record<string, unknown>, now: number): { ready: string; reason: string; restarts: string } {
  const containers = list(pod, 'spec', 'containers');
  let restarts = 0;
  let readyContainers = 0;
  let lastRestart = 0;
  let reason = str(pod, 'status', 'phase');
  if (str(pod, 'status', 'reason') !== '') reason = str(pod, 'status', 'reason');
  for (const c of list(pod, 'status', 'conditions')) {
    if (str(c, 'type') === 'PodScheduled' && str(c, 'reason') === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const noteRestart = (status: unknown): void => {
    const finished = str(status, 'lastState', 'terminated', 'finishedAt');
    const t = finished ? Date.parse(finished) : NaN;
    if (Number.isFinite(t) && t > lastRestart) lastRestart = t;
  };
  const initStatuses = list(pod, 'status', 'initContainerStatuses');
  const initCount = list(pod, 'spec', 'initContainers').length;
  let initializing = false;
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += num(c, 'restartCount');
    noteRestart(c);
    const terminated = get(c, 'state', 'terminated');
    const waitingReason = str(c, 'state', 'waiting', 'reason');
    if (terminated !== undefined && num(terminated, 'exitCode') === 0) continue;
    if (terminated !== undefined) {
      const r = str(terminated, 'reason');
      if (r === '') reason = num(terminated, 'signal') !== 0 ? `Init:Signal:${num(terminated, 'signal')}` : `Init:ExitCode:${num(terminated, 'exitCode')}`;
      else reason = `Init:${r}`;
    } else if (waitingReason !== '' && waitingReason !== 'PodInitializing') {
      reason = `Init:${waitingReason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = list(pod, 'status', 'containerStatuses');
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += num(c, 'restartCount');
      noteRestart(c);
      const terminated = get(c, 'state', 'terminated');
      if (str(c, 'state', 'waiting', 'reason') !== '') reason = str(c, 'state', 'waiting', 'reason');
      else if (terminated !== undefined && str(terminated, 'reason') !== '') reason = str(terminated, 'reason');
      else if (terminated !== undefined) {
        reason = num(terminated, 'signal') !== 0 ? `Signal:${num(terminated, 'signal')}` : `ExitCode:${num(terminated, 'exitCode')}`;
      } else if (get(c, 'ready') === true && get(c, 'state', 'running') !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = list(pod, 'status', 'conditions').some((c) => str(c, 'type') === 'Ready' && str(c, 'status') === 'True');
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (get(pod, 'metadata', 'deletionTimestamp') !== undefined) {
    reason = str(pod, 'status', 'reason') === 'NodeLost' ? 'Unknown' : 'Terminating';
  }
  const restartText = lastRestart > 0 ? `${restarts} (${since(new Date(lastRestart).toISOString(), now)} ago)` : String(restarts);
  return { ready: `${readyContainers}/${containers.length}`, reason, restarts: restartText };
}

function readinessGates(pod: Record<string, unknown>): string {
  const gates = list(pod, 'spec', 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = list(pod, 'status', 'conditions');
  let trueCount = 0;
  for (const g of gates) {
    const c = conditions.find((x) => str(x, 'type') === str(g, 'conditionType'));
    if (c !== undefined && str(c, 'status') === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

/** The pods printer. */
export const podPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Ready', description: 'The aggregate readiness state of this pod for accepting traffic.' },
    { name: 'Status', description: 'The aggregate status of the containers in this pod.' },
    { name: 'Restarts', description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.' },
    ageColumn,
    docColumn('IP', `${core}.PodStatus`, 'podIP', { priority: 1 }),
    docColumn('Node', `${core}.PodSpec`, 'nodeName', { priority: 1 }),
    docColumn('Nominated Node', `${core}.PodStatus`, 'nominatedNodeName', { priority: 1 }),
    docColumn('Readiness Gates', `${core}.PodSpec`, 'readinessGates', { priority: 1 }),
  ],
  cells(pod, ctx) {
    const s = podSummary(pod, ctx.now);
    const ips = list(pod, 'status', 'podIPs');
    const ip = (ips.length > 0 ? str(ips[0], 'ip') : '') || '<none>';
    return [
      str(pod, 'metadata', 'name'), s.ready, s.reason, s.restarts, since(get(pod, 'metadata', 'creationTimestamp'), ctx.now),
      ip, str(pod, 'spec', 'nodeName') || '<none>', str(pod, 'status', 'nominatedNodeName') || '<none>', readinessGates(pod),
    ];
  },
  conditions(pod): RowCondition[] | undefined {
    const phase = str(pod, 'status', 'phase');
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
};
