/**
 * The controllers that run inside the server process: the post-start hooks (system namespaces, default RBAC policy,
 * the system PriorityClasses, the API server identity Lease and its collector) on every replica, and the
 * controllers of the table (kube-controller-manager's) that `--controllers` enables, on shared informers and, on
 * etcd, only while this replica holds the controller Lease. They act on the registry in-process (not over HTTP),
 * through the same operations as clients.
 *
 * Health: the hooks and the API server's own controllers answer under kube-apiserver's `poststarthook/<name>`
 * checks; the controllers of the table (kube-controller-manager's, which kube-apiserver does not report) and the
 * controller Lease answer as part of `informer-sync`, whose informers they are.
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import type { Registry } from '../registry/registry.js';
import { controllerTable, defaultControllers, type ControllerEntry, type ControllerName } from './controller-table.js';
import type { ControllerContext } from './kit/controller.js';
import type { ControllerConfig } from './kit/controller-config.js';
import { createInformerFactory } from './kit/informer-factory.js';
import { apiServerControllers, type ApiServerControllerStart } from './apiserver-controllers.js';
import { apiServerControllerHooks } from './apiserver-controllers.js';
import { startLeaderElection } from './leader-election.js';
import { startRbacBootstrap } from './rbac-bootstrap.js';
import { startSystemNamespaces } from './system-namespaces.js';
import { startSystemPriorityClasses } from './system-priority-classes.js';
import { startIdentityLease } from './apiserver-identity/identity-lease.js';
import { startIdentityLeaseGc } from './apiserver-identity/identity-lease-gc.js';
import { reportedAs, type ReportedCheck } from '../health/merged-checks.js';
import type { Clock } from './kit/clock.js';
import type { StartupBatch } from './startup-batch.js';

/** What {@link startControllers} needs. */
export interface ControllerOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** The controllers to run (`selectControllers` reads them from `--controllers`); default: those on by default. */
  readonly controllers?: readonly ControllerName[];
  /** Pause before retrying unfinished work and failed post-start hooks and informer watches (default 1 s). */
  readonly retryMs?: number;
  /** The batch the post-start hooks' first creates join (default: each creates at once). */
  readonly startup?: StartupBatch;
  /** Where the controllers log failed syncs. */
  readonly log?: (message: string) => void;
  /** Settings of individual controllers (keys, CAs, the authorizer, a clock). */
  readonly config?: ControllerConfig;
  /**
   * Controllers of the API server itself (CRD naming, establishing, finalizing; APIService availability), always
   * run on every replica; default {@link apiServerControllers}.
   */
  readonly apiServerControllers?: readonly ApiServerControllerStart[];
  /**
   * Run the controllers only while this replica holds the controller Lease
   * (kube-controller-manager `--leader-elect`). The system namespace bootstrap runs on every replica: its creates
   * tolerate AlreadyExists, and the Lease lives in the system namespace it creates.
   */
  /**
   * The API server identity Lease and its collector (the APIServerIdentity gate, on by default); the collector's
   * period (default 1 h) and the clock are for tests.
   */
  readonly apiServerIdentity?: { readonly enabled: boolean; readonly gcPeriodMs?: number; readonly clock?: Clock; readonly host?: string };
  readonly leaderElection?: {
    readonly leaseDurationMs: number;
    readonly renewDeadlineMs: number;
    readonly retryPeriodMs: number;
    readonly identity?: string;
    readonly log?: (message: string) => void;
  };
}

/** Running controllers. */
export interface Controllers {
  /** The post-start hooks' and the API server controllers' checks, by kube-apiserver's names (may repeat a name). */
  readonly checks: HealthCheck[];
  /** The checks of the controllers' informers and of the controller Lease, reported as `informer-sync`. */
  readonly informerChecks: ReportedCheck[];
  stop(): Promise<void>;
}

/** Starts the post-start hooks and the enabled controllers. */
export async function startControllers(options: ControllerOptions): Promise<Controllers> {
  const retryMs = options.retryMs ?? 1000;
  const bootstrap = startSystemNamespaces(options.registry, options.names, retryMs, options.startup?.join());
  const rbacBootstrap = startRbacBootstrap(options.registry, options.names, { retryMs, ...(options.startup === undefined ? {} : { writer: options.startup.join() }) });
  const priorityClasses = startSystemPriorityClasses(options.registry, options.names, retryMs, options.log, options.startup?.join());
  const identity = options.apiServerIdentity;
  const identityOn = identity?.enabled !== false;
  // The real clock, as kube's lease controller has: a test's controller clock moves only when stepped, and the Lease
  // must be written (and retried) while nobody steps it.
  const clock = identity?.clock;
  const identityLease = !identityOn ? undefined : startIdentityLease({
    registry: options.registry, names: options.names,
    ...(clock === undefined ? {} : { clock }), ...(identity?.host === undefined ? {} : { host: identity.host }),
    ...(options.log === undefined ? {} : { log: options.log }),
    after: bootstrap.done,
  });
  const identityGc = !identityOn ? undefined : startIdentityLeaseGc({
    registry: options.registry, names: options.names,
    ...(clock === undefined ? {} : { clock }), ...(identity?.gcPeriodMs === undefined ? {} : { periodMs: identity.gcPeriodMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const own = (options.apiServerControllers ?? apiServerControllers).map((start) => start({
    registry: options.registry, names: options.names, retryMs, ...(options.log === undefined ? {} : { log: options.log }),
  }));
  const hookChecks: HealthCheck[] = [
    ...own.flatMap((c) => c.checks.map((check) => reportedAs(apiServerControllerHooks[c.name] ?? check.name, check))),
    ...bootstrap.checks, ...rbacBootstrap.checks, ...priorityClasses.checks,
    ...(identityLease?.checks ?? []), ...(identityGc?.checks ?? []),
  ];
  const stopHooks = async (): Promise<void> => {
    bootstrap.stop();
    rbacBootstrap.stop();
    priorityClasses.stop();
    identityLease?.stop();
    identityGc?.stop();
    await bootstrap.done;
    await rbacBootstrap.done;
    await priorityClasses.done;
    await Promise.all(own.map((c) => c.stop()));
  };
  const startLeading = () => {
    // Informer restarts are not logged: in a storage outage every resource's informer restarts, and the storage
    // check already reports it.
    const informers = createInformerFactory(options.registry, { retryMs });
    const context: ControllerContext = {
      registry: options.registry, names: options.names, informers, retryMs, ...(options.log === undefined ? {} : { log: options.log }),
      ...(options.config === undefined ? {} : { config: options.config }),
    };
    const running = (options.controllers ?? defaultControllers).flatMap((name) => {
      const entry: ControllerEntry = controllerTable[name];
      const skipped = entry.skipReason?.(context);
      if (skipped === undefined) return [entry.start(context)];
      options.log?.(`controller ${name} not started: ${skipped}`);
      return [];
    });
    return {
      checks: running.flatMap((c) => c.checks),
      async stop() {
        await Promise.all(running.map((c) => c.stop()));
        informers.stop();
      },
    };
  };
  const election = options.leaderElection;
  if (election === undefined) {
    const leading = startLeading();
    return {
      checks: hookChecks,
      informerChecks: leading.checks.map((c) => reportedAs('informer-sync', c)),
      async stop() {
        await stopHooks();
        await leading.stop();
      },
    };
  }
  let leading: ReturnType<typeof startLeading> | undefined;
  const elector = startLeaderElection({
    registry: options.registry,
    names: options.names,
    leaseName: options.names.name('controllerManagerName'),
    leaseDurationMs: election.leaseDurationMs,
    renewDeadlineMs: election.renewDeadlineMs,
    retryPeriodMs: election.retryPeriodMs,
    ...(election.identity === undefined ? {} : { identity: election.identity }),
    ...(election.log === undefined ? {} : { log: election.log }),
    onStartedLeading() {
      leading = startLeading();
    },
    async onStoppedLeading() {
      const was = leading;
      leading = undefined;
      await was?.stop();
    },
  });
  // The leader's controller checks as one; a replica that does not lead has nothing of them to report.
  const controllersCheck: HealthCheck = {
    name: 'leader-controllers',
    async check() {
      for (const c of leading?.checks ?? []) {
        const reason = await c.check();
        if (reason !== undefined) return `${c.name}: ${reason}`;
      }
      return undefined;
    },
  };
  return {
    checks: hookChecks,
    informerChecks: [controllersCheck, elector.check].map((c) => reportedAs('informer-sync', c)),
    async stop() {
      await stopHooks();
      await elector.stop();
    },
  };
}
