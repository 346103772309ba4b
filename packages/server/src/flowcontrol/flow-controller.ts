/**
 * API Priority and Fairness (k8s.io/apiserver/pkg/util/flowcontrol's controller): the current FlowSchemas and
 * priority levels, each limited level with its queues. Every request is classified by the first matching
 * FlowSchema (FlowSchemas naming a missing level are skipped, as dangling) and handled by its level: the exempt
 * level executes at once; a limited level gives it one of its seats, queues it, or rejects it. A limited level's
 * seats are its nominal share of the server's concurrency limit (`--max-requests-inflight` +
 * `--max-mutating-requests-inflight`): ceil(limit × nominalConcurrencyShares / sum of every limited level's
 * shares). The mandatory objects are used from memory while the stored ones are missing, as kube does.
 */
import { catchAllName, exemptName, mandatoryConfiguration } from './bootstrap-configuration.js';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import { flowDistinguisher, flowSchemaMatches, inMatchingOrder } from './classification.js';
import type { FlowSchema, PriorityLevelConfiguration } from './configuration-objects.js';
import { flowcontrolMetrics, type FlowcontrolMetrics } from './flowcontrol-metrics.js';
import { createQueueSet, type Admission, type QueueSet, type QueueSetConfig } from './queue-set.js';
import { flowHash } from './shuffle-sharding.js';

/** What classification decided for a request. */
export interface Classification {
  readonly flowSchema: FlowSchema;
  readonly priorityLevel: PriorityLevelConfiguration;
  readonly distinguisher: string;
}

/** A priority level's state (tests, status). */
export interface LevelState {
  readonly name: string;
  readonly exempt: boolean;
  readonly nominalLimit: number;
  readonly executing: number;
  readonly waiting: number;
}

/** Options of the controller. */
export interface FlowControllerOptions {
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  readonly serverConcurrencyLimit: number;
  /** Longest wait in a queue before a 429 (kube: a quarter of the request timeout, 15 s). */
  readonly waitLimitMs: number;
  readonly metrics?: FlowcontrolMetrics;
}

/** The flow controller. */
export interface FlowController {
  /** Takes the stored configuration (the mandatory objects fill in for missing ones). */
  configure(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void;
  classify(user: UserInfo, info: RequestInfo): Classification;
  /** A seat for a classified request; `signal` aborts a wait in a queue. */
  admit(classification: Classification, signal?: () => AbortSignal): Admission | Promise<Admission>;
  levels(): LevelState[];
  /** Whether the FlowSchema names a priority level that does not exist. */
  isDangling(flowSchema: FlowSchema): boolean;
}

interface Level {
  object: PriorityLevelConfiguration;
  queueSet: QueueSet | undefined;
  nominalLimit: number;
}

function queueSetConfig(pl: PriorityLevelConfiguration, nominalLimit: number, waitLimitMs: number): QueueSetConfig {
  const response = pl.spec.limited?.limitResponse;
  const q = response?.type === 'Queue' ? response.queuing : undefined;
  return {
    concurrencyLimit: nominalLimit,
    queues: response?.type === 'Queue' ? Math.max(1, q?.queues ?? 64) : 0,
    handSize: q?.handSize ?? 8,
    queueLengthLimit: q?.queueLengthLimit ?? 50,
    waitLimitMs,
  };
}

/** Creates the controller with the mandatory configuration. */
export function createFlowController(options: FlowControllerOptions): FlowController {
  const metrics = options.metrics ?? flowcontrolMetrics();
  const levels = new Map<string, Level>();
  let schemas: FlowSchema[] = [];
  const counts = new Map<string, { inQueue: number; executing: number }>();

  const track = (c: Classification, field: 'inQueue' | 'executing', delta: number): void => {
    const key = `${c.priorityLevel.metadata.name}\u0000${c.flowSchema.metadata.name}`;
    let entry = counts.get(key);
    if (entry === undefined) counts.set(key, (entry = { inQueue: 0, executing: 0 }));
    entry[field] += delta;
    const labels = { priority_level: c.priorityLevel.metadata.name, flow_schema: c.flowSchema.metadata.name };
    (field === 'inQueue' ? metrics.inQueue : metrics.executing).set(labels, entry[field]);
  };

  const controller: FlowController = {
    configure(flowSchemas, priorityLevels) {
      const mandatory = mandatoryConfiguration();
      const pls = [...priorityLevels];
      for (const m of mandatory.priorityLevels) if (!pls.some((p) => p.metadata.name === m.metadata.name)) pls.push(m);
      const fss = [...flowSchemas];
      for (const m of mandatory.flowSchemas) if (!fss.some((f) => f.metadata.name === m.metadata.name)) fss.push(m);
      const shares = (pl: PriorityLevelConfiguration): number => (pl.spec.type === 'Limited' ? Math.max(0, pl.spec.limited?.nominalConcurrencyShares ?? 30) : 0);
      const total = pls.reduce((sum, pl) => sum + shares(pl), 0);
      const seen = new Set<string>();
      for (const pl of pls) {
        const name = pl.metadata.name;
        seen.add(name);
        const nominalLimit = pl.spec.type === 'Exempt' || total === 0 ? 0 : Math.ceil((options.serverConcurrencyLimit * shares(pl)) / total);
        const existing = levels.get(name);
        if (pl.spec.type === 'Exempt') {
          levels.set(name, { object: pl, queueSet: undefined, nominalLimit });
        } else {
          const cfg = queueSetConfig(pl, nominalLimit, options.waitLimitMs);
          // A level keeps its queues (and whoever waits in them) across changes of its configuration.
          const queueSet = existing?.queueSet ?? createQueueSet(cfg);
          if (existing?.queueSet !== undefined) queueSet.configure(cfg);
          levels.set(name, { object: pl, queueSet, nominalLimit });
          metrics.nominalLimitSeats.set({ priority_level: name }, nominalLimit);
          metrics.concurrencyLimit.set({ priority_level: name }, nominalLimit);
        }
      }
      // A removed level keeps serving the requests it queued (its queue set lives on in their promises); new ones go elsewhere.
      for (const name of [...levels.keys()]) if (!seen.has(name)) levels.delete(name);
      schemas = inMatchingOrder(fss);
    },
    classify(user, info) {
      for (const fs of schemas) {
        const level = levels.get(fs.spec.priorityLevelConfiguration.name);
        if (level === undefined || !flowSchemaMatches(fs, user, info)) continue;
        return { flowSchema: fs, priorityLevel: level.object, distinguisher: flowDistinguisher(fs, user, info) };
      }
      // Only a configuration without a catch-all can get here; the mandatory one is always present in memory.
      const fs = schemas.find((s) => s.metadata.name === catchAllName)!;
      return { flowSchema: fs, priorityLevel: levels.get(catchAllName)!.object, distinguisher: user.username };
    },
    admit(c, signal) {
      const level = levels.get(c.priorityLevel.metadata.name);
      const fsName = c.flowSchema.metadata.name;
      const plName = c.priorityLevel.metadata.name;
      const finish = (admission: Admission): Admission => {
        const seconds = admission.waitedMs / 1000;
        if (admission.kind === 'reject') {
          metrics.rejected.inc({ flow_schema: fsName, priority_level: plName, reason: admission.reason });
          metrics.waitDuration.observe({ flow_schema: fsName, priority_level: plName, execute: 'false' }, seconds);
          return admission;
        }
        metrics.dispatched.inc({ flow_schema: fsName, priority_level: plName });
        metrics.waitDuration.observe({ flow_schema: fsName, priority_level: plName, execute: 'true' }, seconds);
        track(c, 'executing', 1);
        const started = performance.now();
        let released = false;
        return {
          ...admission,
          release() {
            if (released) return;
            released = true;
            track(c, 'executing', -1);
            metrics.executionDuration.observe({ flow_schema: fsName, priority_level: plName, type: 'regular' }, (performance.now() - started) / 1000);
            admission.release();
          },
        };
      };
      if (level?.queueSet === undefined) return finish({ kind: 'execute', waitedMs: 0, queued: false, release: () => {} });
      const admission = level.queueSet.admit(flowHash(fsName, c.distinguisher), signal);
      if (!(admission instanceof Promise)) return finish(admission);
      track(c, 'inQueue', 1);
      return admission.then((a) => {
        track(c, 'inQueue', -1);
        return finish(a);
      });
    },
    levels() {
      return [...levels.entries()].map(([name, l]) => ({
        name, exempt: l.queueSet === undefined, nominalLimit: l.nominalLimit, executing: l.queueSet?.executing ?? 0, waiting: l.queueSet?.waiting ?? 0,
      }));
    },
    isDangling(fs) {
      return !levels.has(fs.spec.priorityLevelConfiguration.name);
    },
  };
  controller.configure([], []);
  return controller;
}

