/**
 * API Priority and Fairness (k8s.io/apiserver/pkg/util/flowcontrol's config controller, 1.27): the current
 * FlowSchemas and priority levels, each limited level with its queues. Every request is classified by the first
 * matching FlowSchema (FlowSchemas naming a missing level are skipped, as dangling) and handled by its level: the
 * exempt level executes at once; a limited level gives it the seats its work estimate asks for, queues it, or
 * rejects it. The mandatory objects are used from memory while the stored ones are missing, as kube does.
 *
 * Seats: a limited level's nominal limit is its share of the server's concurrency limit (`--max-requests-inflight`
 * + `--max-mutating-requests-inflight`), ceil(limit × nominalConcurrencyShares / sum of the limited levels'
 * shares). It may lend `lendablePercent` of it and borrow up to `borrowingLimitPercent` of it more (unbounded when
 * unset): its limit stays between nominal − lendable and nominal + borrowable. Every 10 s, and at each change of
 * configuration, the limits are set again from the levels' seat demand (kube's updateBorrowing): each level asks
 * for its smoothed demand, is given at least what it used at its peak (up to its nominal limit, and never below its
 * lower limit), and the nominal seats of all levels are divided among them in fair proportion to what they ask.
 * A level's removal waits for its queues to drain (it quiesces: no new requests, its seats still counted). A
 * level kube could not use (an exempt type under another name, queues no hand can be dealt from) is ignored.
 */
import { catchAllName, exemptName, mandatoryConfiguration } from './bootstrap-configuration.js';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import { flowDistinguisher, flowSchemaMatches, inMatchingOrder } from './classification.js';
import { computeConcurrencyAllocation, type AllocationItem } from './concurrency-allocation.js';
import type { FlowSchema, PriorityLevelConfiguration } from './configuration-objects.js';
import { flowcontrolMetrics, type FlowcontrolMetrics } from './flowcontrol-metrics.js';
import { createObjectCountTracker, type ObjectCountTracker } from './object-count-tracker.js';
import { createQueueSet, realClock, type Admission, type QueueSet, type QueueSetClock, type QueueSetConfig } from './queue-set.js';
import { nextSeatDemandStats, noSeatDemand, type SeatDemandStats } from './seat-demand.js';
import { dealerError, flowHash } from './shuffle-sharding.js';
import { createWatchTracker, type WatchTracker } from './watch-tracker.js';
import { estimateWork, type WorkRequest } from './work-estimator.js';
import { maxSeatsOf, type WorkEstimate } from './work-estimate.js';

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
  /** Nominal less what it may lend. */
  readonly lowerLimit: number;
  /** Nominal plus what it may borrow. */
  readonly upperLimit: number;
  /** The limit the last adjustment set. */
  readonly currentLimit: number;
  /** The most seats one request of the level is given (0: the estimator's limit). */
  readonly maxSeats: number;
  readonly demand: SeatDemandStats;
  readonly executing: number;
  readonly waiting: number;
  readonly seatsInUse: number;
  /** Removed from the configuration, still draining. */
  readonly quiescing: boolean;
}

/** Options of the controller. */
export interface FlowControllerOptions {
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  readonly serverConcurrencyLimit: number;
  /** Longest wait in a queue before a 429 (kube: a quarter of the request timeout, 15 s). */
  readonly waitLimitMs: number;
  readonly metrics?: FlowcontrolMetrics;
  /** Whether the APIListChunking gate is on (default true). */
  readonly listChunking?: boolean;
  /** Period of the borrowing adjustment once `run` (kube: 10 s). */
  readonly adjustmentPeriodMs?: number;
  /** The clock of the queues and the seat demand (tests). */
  readonly clock?: QueueSetClock;
}

/** How a classified request asks for seats. */
export interface AdmitOptions {
  /** Its work (from {@link FlowController.estimateWork}); one seat by default. */
  readonly estimate?: WorkEstimate;
  /** Aborts a wait in a queue. */
  readonly signal?: () => AbortSignal;
  /** A watch: its execution is its initialization (the `type` of the execution metric). */
  readonly watch?: boolean;
}

/** The flow controller. */
export interface FlowController {
  /** Takes the stored configuration (the mandatory objects fill in for missing ones). */
  configure(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void;
  classify(user: UserInfo, info: RequestInfo): Classification;
  /** The work of a request of a limited level (kube's work estimator, capped by the level's seats). */
  estimateWork(classification: Classification, request: WorkRequest): WorkEstimate;
  /** Seats for a classified request. */
  admit(classification: Classification, options?: AdmitOptions): Admission | Promise<Admission>;
  /** Sets every limited level's current limit from its seat demand since the last adjustment (kube's updateBorrowing). */
  adjustLimits(): void;
  /** Adjusts the limits every period until the returned function is called. */
  run(): () => void;
  levels(): LevelState[];
  /** Whether the FlowSchema names a priority level that does not exist. */
  isDangling(flowSchema: FlowSchema): boolean;
  /** The watches open on the server (the cost of writes). */
  readonly watches: WatchTracker;
  /** The stored objects of each resource (the cost of lists). */
  readonly objectCounts: ObjectCountTracker;
}

/** The share of a level's nominal seats one request may take at most (kube's priorityLevelMaxSeatsPercent). */
const maxSeatsShare = 0.15;

interface Level {
  object: PriorityLevelConfiguration;
  queueSet: QueueSet | undefined;
  nominal: number;
  lower: number;
  upper: number;
  current: number;
  maxSeats: number;
  demand: SeatDemandStats;
  quiescing: boolean;
}

/** An integer read from a stored object: `fallback` when it has none (validation should see to the rest). */
const integer = (value: number | undefined, fallback: number): number => (value !== undefined && Number.isFinite(value) ? Math.floor(value) : fallback);

/** A percentage read from a stored object: within 0–100 for lending, 0 to int32's largest for borrowing. */
const percent = (value: number | undefined, max: number): number | undefined => (value === undefined || !Number.isFinite(value) ? undefined : Math.min(max, Math.max(0, value)));

/** The queuing of a level: no queues for Reject; kube's defaults where the stored object has none. */
function queuingOf(pl: PriorityLevelConfiguration): Omit<QueueSetConfig, 'concurrencyLimit' | 'waitLimitMs'> {
  const response = pl.spec.limited?.limitResponse;
  if (response?.type !== 'Queue') return { queues: 0, handSize: 1, queueLengthLimit: 1 };
  const q = response.queuing;
  return { queues: integer(q?.queues, 64), handSize: integer(q?.handSize, 8), queueLengthLimit: integer(q?.queueLengthLimit, 50) };
}

/**
 * Why a level cannot be used (kube's controller ignores such a PriorityLevelConfiguration, as if it did not exist):
 * an exempt type on another name than `exempt` or the reverse, or queues that cannot be dealt from.
 */
function brokenReason(pl: PriorityLevelConfiguration): string | undefined {
  if ((pl.spec.type === 'Exempt') !== (pl.metadata.name === exemptName)) return 'non-alignment between name and type';
  if (pl.spec.limited?.limitResponse?.type !== 'Queue') return undefined;
  const queuing = queuingOf(pl);
  return dealerError(queuing.queues, queuing.handSize);
}

const sharesOf = (pl: PriorityLevelConfiguration): number => (pl.spec.type === 'Limited' ? Math.max(0, integer(pl.spec.limited?.nominalConcurrencyShares, 30)) : 0);

/** Creates the controller with the mandatory configuration. */
export function createFlowController(options: FlowControllerOptions): FlowController {
  const metrics = options.metrics ?? flowcontrolMetrics();
  const clock = options.clock ?? realClock;
  const serverLimit = options.serverConcurrencyLimit;
  const levels = new Map<string, Level>();
  const watches = createWatchTracker();
  const objectCounts = createObjectCountTracker();
  const estimatorSources = { objectCounts, watches, listChunking: options.listChunking ?? true };
  let schemas: FlowSchema[] = [];
  let lastConfiguration: [readonly FlowSchema[], readonly PriorityLevelConfiguration[]] = [[], []];
  const counts = new Map<string, { inQueue: number; executing: number; seats: number }>();

  const track = (c: Classification, field: 'inQueue' | 'executing' | 'seats', delta: number): void => {
    const key = `${c.priorityLevel.metadata.name}\u0000${c.flowSchema.metadata.name}`;
    let entry = counts.get(key);
    if (entry === undefined) counts.set(key, (entry = { inQueue: 0, executing: 0, seats: 0 }));
    entry[field] += delta;
    const labels = { priority_level: c.priorityLevel.metadata.name, flow_schema: c.flowSchema.metadata.name };
    (field === 'inQueue' ? metrics.inQueue : field === 'executing' ? metrics.executing : metrics.concurrencyInUse).set(labels, entry[field]);
  };

  const queueSetConfig = (level: Level): QueueSetConfig => ({ ...queuingOf(level.object), concurrencyLimit: level.current, waitLimitMs: options.waitLimitMs });

  const adjustLimits = (): void => {
    const limited = [...levels.entries()].filter(([, l]) => l.queueSet !== undefined);
    const items: AllocationItem[] = limited.map(([, l]) => {
      l.demand = nextSeatDemandStats(l.demand, l.queueSet!.seatDemand.reset());
      // At least what it used at its peak, up to its nominal limit; never below what it keeps when lending.
      const lowerBound = Math.max(l.lower, Math.min(l.nominal, l.demand.highWatermark));
      return { lowerBound, upperBound: l.upper, target: Math.max(lowerBound, l.demand.smoothed) };
    });
    const nominalSum = limited.reduce((sum, [, l]) => sum + l.nominal, 0);
    const allocation = computeConcurrencyAllocation(nominalSum, items);
    for (const [i, [name, l]] of limited.entries()) {
      // Should the problem have no answer, the levels keep their limits.
      if (allocation.ok) l.current = Math.round(allocation.value.allocs[i]!);
      l.queueSet!.configure(queueSetConfig(l));
      const labels = { priority_level: name };
      metrics.demandHighWatermark.set(labels, l.demand.highWatermark);
      metrics.demandAverage.set(labels, l.demand.average);
      metrics.demandStdev.set(labels, l.demand.deviation);
      metrics.demandSmoothed.set(labels, l.demand.smoothed);
      metrics.targetSeats.set(labels, items[i]!.target);
      metrics.currentLimitSeats.set(labels, l.current);
    }
    if (allocation.ok) metrics.seatFairFrac.set({}, allocation.value.fairProp);
  };

  /** Forgets a quiescing level once its last request is done. */
  const reapIfIdle = (name: string): void => {
    const level = levels.get(name);
    if (level === undefined || !level.quiescing || level.queueSet?.isIdle() === false) return;
    levels.delete(name);
    controller.configure(...lastConfiguration);
  };

  const controller: FlowController = {
    configure(flowSchemas, priorityLevels) {
      lastConfiguration = [flowSchemas, priorityLevels];
      const mandatory = mandatoryConfiguration();
      const pls = priorityLevels.filter((pl) => brokenReason(pl) === undefined);
      for (const m of mandatory.priorityLevels) if (!pls.some((p) => p.metadata.name === m.metadata.name)) pls.push(m);
      const fss = [...flowSchemas];
      for (const m of mandatory.flowSchemas) if (!fss.some((f) => f.metadata.name === m.metadata.name)) fss.push(m);
      const wanted = new Set(pls.map((p) => p.metadata.name));
      // A removed level that still has requests quiesces; one that has none goes.
      for (const [name, level] of levels) {
        if (wanted.has(name)) continue;
        if (level.queueSet === undefined || level.queueSet.isIdle()) levels.delete(name);
        else level.quiescing = true;
      }
      for (const pl of pls) {
        const existing = levels.get(pl.metadata.name);
        if (existing === undefined) {
          levels.set(pl.metadata.name, { object: pl, queueSet: undefined, nominal: 0, lower: 0, upper: 0, current: 0, maxSeats: 0, demand: noSeatDemand, quiescing: false });
        } else {
          existing.object = pl;
          existing.quiescing = false;
        }
      }
      const shareSum = [...levels.values()].reduce((sum, l) => sum + sharesOf(l.object), 0);
      for (const [name, level] of levels) {
        const pl = level.object;
        if (pl.spec.type === 'Exempt') {
          level.queueSet = undefined;
          continue;
        }
        const limited = pl.spec.limited;
        const nominal = shareSum === 0 ? 0 : Math.ceil((serverLimit * sharesOf(pl)) / shareSum);
        const lendable = Math.round((nominal * (percent(limited?.lendablePercent, 100) ?? 0)) / 100);
        const borrowingPercent = percent(limited?.borrowingLimitPercent, 2 ** 31 - 1);
        const borrowable = borrowingPercent === undefined ? serverLimit : Math.round((nominal * borrowingPercent) / 100);
        level.nominal = nominal;
        level.lower = nominal - lendable;
        level.upper = nominal + borrowable;
        const queuing = queuingOf(pl);
        level.maxSeats = queuing.queues > 0 ? Math.max(1, Math.min(Math.ceil(nominal * maxSeatsShare), Math.floor(nominal / queuing.handSize))) : 0;
        if (level.queueSet === undefined) {
          // A new level starts with half of what it may lend lent.
          level.current = nominal - Math.floor(lendable / 2);
          level.demand = noSeatDemand;
          level.queueSet = createQueueSet(queueSetConfig(level), clock);
        }
        const labels = { priority_level: name };
        metrics.nominalLimitSeats.set(labels, nominal);
        metrics.concurrencyLimit.set(labels, nominal);
        metrics.lowerLimitSeats.set(labels, level.lower);
        metrics.upperLimitSeats.set(labels, level.upper);
      }
      schemas = inMatchingOrder(fss.filter((fs) => levels.get(fs.spec.priorityLevelConfiguration.name)?.quiescing === false));
      adjustLimits();
    },
    classify(user, info) {
      for (const fs of schemas) {
        if (!flowSchemaMatches(fs, user, info)) continue;
        const level = levels.get(fs.spec.priorityLevelConfiguration.name)!;
        return { flowSchema: fs, priorityLevel: level.object, distinguisher: flowDistinguisher(fs, user, info) };
      }
      // Only a configuration without a catch-all can get here; the mandatory one is always present in memory.
      const fs = schemas.find((s) => s.metadata.name === catchAllName)!;
      return { flowSchema: fs, priorityLevel: levels.get(catchAllName)!.object, distinguisher: user.username };
    },
    estimateWork(c, request) {
      const fsPl = { priority_level: c.priorityLevel.metadata.name, flow_schema: c.flowSchema.metadata.name };
      const estimate = estimateWork({ ...estimatorSources, watchCountSampled: (n) => metrics.watchCountSamples.observe(fsPl, n) }, request, levels.get(c.priorityLevel.metadata.name)?.maxSeats ?? 0);
      metrics.workEstimatedSeats.observe(fsPl, maxSeatsOf(estimate));
      return estimate;
    },
    admit(c, admitOptions = {}) {
      const plName = c.priorityLevel.metadata.name;
      const level = levels.get(plName);
      const fsPl = { priority_level: plName, flow_schema: c.flowSchema.metadata.name };
      const finish = (admission: Admission): Admission => {
        const seconds = admission.waitedMs / 1000;
        if (admission.kind === 'reject') {
          metrics.rejected.inc({ ...fsPl, reason: admission.reason });
          metrics.waitDuration.observe({ ...fsPl, execute: 'false' }, seconds);
          return admission;
        }
        metrics.dispatched.inc(fsPl);
        metrics.waitDuration.observe({ ...fsPl, execute: 'true' }, seconds);
        track(c, 'executing', 1);
        const started = performance.now();
        let released = false;
        return {
          ...admission,
          release() {
            if (released) return;
            released = true;
            track(c, 'executing', -1);
            metrics.executionDuration.observe({ ...fsPl, type: admitOptions.watch === true ? 'watch' : 'regular' }, (performance.now() - started) / 1000);
            admission.release();
          },
        };
      };
      if (level?.queueSet === undefined) return finish({ kind: 'execute', waitedMs: 0, queued: false, seats: 0, release: () => {} });
      let seats = 0;
      const admission = level.queueSet.admit({
        flowHash: flowHash(c.flowSchema.metadata.name, c.distinguisher),
        ...(admitOptions.estimate === undefined ? {} : { estimate: admitOptions.estimate }),
        ...(admitOptions.signal === undefined ? {} : { signal: admitOptions.signal }),
        enqueued: (length) => metrics.queueLengthAfterEnqueue.observe(fsPl, length),
        notAccommodated: () => metrics.dispatchNoAccommodation.inc(fsPl),
        seatsFreed: () => {
          track(c, 'seats', -seats);
          if (level.quiescing) reapIfIdle(plName);
        },
      });
      const dispatched = (a: Admission): Admission => {
        if (a.kind === 'execute') track(c, 'seats', (seats = a.seats));
        else if (level.quiescing) reapIfIdle(plName);
        return finish(a);
      };
      if (!(admission instanceof Promise)) return dispatched(admission);
      track(c, 'inQueue', 1);
      return admission.then((a) => {
        track(c, 'inQueue', -1);
        return dispatched(a);
      });
    },
    adjustLimits,
    run() {
      const timer = setInterval(adjustLimits, options.adjustmentPeriodMs ?? 10_000);
      timer.unref();
      return () => clearInterval(timer);
    },
    levels() {
      return [...levels.entries()].map(([name, l]) => ({
        name, exempt: l.queueSet === undefined, nominalLimit: l.nominal, lowerLimit: l.lower, upperLimit: l.upper, currentLimit: l.current,
        maxSeats: l.maxSeats, demand: l.demand, executing: l.queueSet?.executing ?? 0, waiting: l.queueSet?.waiting ?? 0,
        seatsInUse: l.queueSet?.seatsInUse ?? 0, quiescing: l.quiescing,
      }));
    },
    isDangling(fs) {
      return levels.get(fs.spec.priorityLevelConfiguration.name)?.quiescing !== false;
    },
    watches,
    objectCounts,
  };
  controller.configure([], []);
  return controller;
}
