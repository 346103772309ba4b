/**
 * The controllers that run inside the server process: the system namespace bootstrap, the namespace
 * controller and the garbage collector. They act on the registry in-process (not over HTTP), through the same operations as clients.
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import type { Registry } from '../registry/registry.js';
import { startClusterRoleAggregation } from './cluster-role-aggregation.js';
import { startGarbageCollector } from './garbage-collector.js';
import { startLeaderElection } from './leader-election.js';
import { startNamespaceController } from './namespace-controller.js';
import { startRbacBootstrap } from './rbac-bootstrap.js';
import { startSystemNamespaces } from './system-namespaces.js';

/** What {@link startControllers} needs. */
export interface ControllerOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** Pause before retrying failed or unfinished work (default 1 s). */
  readonly retryMs?: number;
  /**
   * Run the namespace controller and the garbage collector only while this replica holds the controller Lease
   * (kube-controller-manager `--leader-elect`). The system namespace bootstrap runs on every replica: its creates
   * tolerate AlreadyExists, and the Lease lives in the system namespace it creates.
   */
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
  readonly checks: HealthCheck[];
  stop(): Promise<void>;
}

/** Starts every controller. */
export async function startControllers(options: ControllerOptions): Promise<Controllers> {
  const retryMs = options.retryMs ?? 1000;
  const bootstrap = startSystemNamespaces(options.registry, options.names, retryMs);
  const rbacBootstrap = startRbacBootstrap(options.registry, options.names, { retryMs });
  const startLeading = () => {
    const namespaces = startNamespaceController(options.registry, options.names, { retryMs });
    const garbage = startGarbageCollector(options.registry, { retryMs });
    const aggregation = startClusterRoleAggregation(options.registry, options.names, { retryMs });
    return {
      checks: [...namespaces.checks, ...garbage.checks, ...aggregation.checks],
      async stop() {
        await namespaces.stop();
        await garbage.stop();
        await aggregation.stop();
      },
    };
  };
  const election = options.leaderElection;
  if (election === undefined) {
    const leading = startLeading();
    return {
      checks: [...bootstrap.checks, ...rbacBootstrap.checks, ...leading.checks],
      async stop() {
        bootstrap.stop();
        rbacBootstrap.stop();
        await bootstrap.done;
        await rbacBootstrap.done;
        await leading.stop();
      },
    };
  }
  let leading: ReturnType<typeof startLeading> | undefined;
  const elector = startLeaderElection({
    registry: options.registry,
    names: options.names,
    leaseName: options.names.name('controllerManagerLease'),
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
    checks: [...bootstrap.checks, ...rbacBootstrap.checks, controllersCheck, elector.check],
    async stop() {
      bootstrap.stop();
      rbacBootstrap.stop();
      await bootstrap.done;
      await rbacBootstrap.done;
      await elector.stop();
    },
  };
}
