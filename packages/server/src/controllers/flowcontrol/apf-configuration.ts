/**
 * The API Priority and Fairness configuration of the store, kept and read as kube-apiserver keeps and reads it:
 *
 * - the config producer (post-start hook `priority-and-fairness-config-producer`, then once a minute): the
 *   mandatory objects are created when missing and their spec restored when changed; the suggested ones are
 *   created when missing and their spec kept current while they carry `apf.svc.io/autoupdate-spec: "true"` (an
 *   object without the annotation that was never changed gets it); auto-updated objects that are no longer part of
 *   the bootstrap configuration are deleted;
 * - the config consumer: the FlowSchemas and PriorityLevelConfigurations, read through informers, configure the
 *   flow controller as they change, and each FlowSchema's `Dangling` condition says whether its priority level
 *   exists;
 * - the flow controller's periodic work, whether the flowcontrol API is served or not: the borrowing adjustment of
 *   the levels' limits, and the stored object counts the cost of lists is estimated from.
 *
 * The producer reads the objects side by side and creates the missing ones together (through the start-up batch on
 * its first round), then restores the changed ones.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { suggestedConfiguration, mandatoryConfiguration, type BootstrapConfiguration } from '../../flowcontrol/bootstrap-configuration.js';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from '../../flowcontrol/configuration-objects.js';
import type { FlowController } from '../../flowcontrol/flow-controller.js';
import type { HealthCheck } from '../../health/health-check.js';
import { startInformer, type Informer } from '../../registry/informer.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { runPostStartHook } from '../post-start-hook.js';
import { directWriter, type StartupWriter } from '../startup-batch.js';
import { startObjectCounting } from './object-counts.js';

/** The flowcontrol version the configuration is written and read in (1.27's preferred one). */
const version = 'v1beta3';

/** Options of {@link startApfConfiguration}. */
export interface ApfConfigurationOptions {
  /** Pause between the producer's rounds after the first success (kube: 1 minute). */
  readonly ensureIntervalMs?: number;
  readonly retryMs?: number;
  /** Pause between counts of the stored objects (kube's `--etcd-count-metric-poll-period`, 1 minute). */
  readonly objectCountPeriodMs?: number;
  readonly log?: (message: string) => void;
  /** Where the first round creates the missing objects (default: at once). */
  readonly writer?: StartupWriter;
}

/** The running producer and consumer. */
export interface ApfConfiguration {
  readonly checks: readonly HealthCheck[];
  /** Runs one round of the producer now (tests). */
  ensure(): Promise<string | undefined>;
  stop(): void;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Starts the producer and the consumer feeding `controller`. */
export function startApfConfiguration(registry: Registry, names: Names, controller: FlowController, options: ApfConfigurationOptions = {}): ApfConfiguration {
  const group = names.group('flowcontrol.apiserver');
  const autoUpdate = names.domain('autoupdate-spec', 'apf');
  const log = options.log ?? (() => {});
  const stopAdjusting = controller.run();
  const counting = startObjectCounting(registry, controller.objectCounts, {
    log, ...(options.objectCountPeriodMs === undefined ? {} : { periodMs: options.objectCountPeriodMs }),
  });
  const stopRunning = (): void => {
    stopAdjusting();
    counting.stop();
  };
  const fsDef = registry.lookup(group, version, 'flowschemas');
  const plDef = registry.lookup(group, version, 'prioritylevelconfigurations');
  if (fsDef === undefined || plDef === undefined) {
    // The flowcontrol API turned off (--runtime-config): the controller keeps the mandatory configuration.
    options.writer?.release();
    return { checks: [], ensure: async () => undefined, stop: stopRunning };
  }
  const mandatory = mandatoryConfiguration();
  const suggested = suggestedConfiguration(names);

  const withApi = (o: FlowSchema | PriorityLevelConfiguration): KubeObject => ({
    ...o,
    apiVersion: `${group}/${version}`,
    metadata: { ...o.metadata, annotations: { [autoUpdate]: 'true' } },
  }) as unknown as KubeObject;

  /** Keeps one stored object current; answers an error message or undefined. */
  const maintain = async (def: ResourceDef, wanted: FlowSchema | PriorityLevelConfiguration, isMandatory: boolean, stored: KubeObject): Promise<string | undefined> => {
    const name = wanted.metadata.name;
    const current = stored as unknown as FlowSchema | PriorityLevelConfiguration;
    const annotation = current.metadata.annotations?.[autoUpdate];
    const generation = (current.metadata as { generation?: number }).generation ?? 1;
    const maintained = isMandatory || annotation === 'true' || (annotation === undefined && generation === 1);
    if (!maintained) return undefined;
    if (sameJson(current.spec, wanted.spec) && annotation === 'true') return undefined;
    const next = {
      ...structuredClone(stored),
      spec: structuredClone(wanted.spec),
      metadata: { ...structuredClone(stored.metadata), annotations: { ...(current.metadata.annotations ?? {}), [autoUpdate]: 'true' } },
    } as KubeObject;
    const updated = await updateObject(registry, def, '', next, stored, loopbackContext(registry.names, 'apiserver'));
    return updated.ok || updated.error.code === 409 ? undefined : `updating ${def.resource} ${name}: ${updated.error.message ?? ''}`;
  };

  /** The objects of both sets, the mandatory ones first, priority levels before flow schemas within a set. */
  const wantedObjects = [[mandatory, true], [suggested, false]].flatMap(([set, isMandatory]) => [
    ...(set as BootstrapConfiguration).priorityLevels.map((wanted) => ({ def: plDef, wanted, isMandatory: isMandatory as boolean })),
    ...(set as BootstrapConfiguration).flowSchemas.map((wanted) => ({ def: fsDef, wanted, isMandatory: isMandatory as boolean })),
  ]);

  /** Ensures every object: reads them side by side, creates the missing ones together, then restores the others. */
  const ensureObjects = async (writer: StartupWriter): Promise<string | undefined> => {
    const stored = await Promise.all(wantedObjects.map(({ def, wanted }) => registry.store.get(def, '', wanted.metadata.name)));
    const unreadable = stored.findIndex((got) => !got.ok && got.error.code !== 404);
    const missing = wantedObjects.filter((_, i) => !stored[i]!.ok);
    if (unreadable >= 0) {
      writer.release();
      const got = stored[unreadable]!;
      const { def, wanted } = wantedObjects[unreadable]!;
      return `reading ${def.resource} ${wanted.metadata.name}: ${got.ok ? '' : got.error.message ?? ''}`;
    }
    const created = await writer.create(missing.map(({ def, wanted }) => ({ def, object: withApi(wanted) })));
    const notCreated = created.findIndex((c) => !c.ok && c.error.reason !== 'AlreadyExists');
    if (notCreated >= 0) {
      const result = created[notCreated]!;
      const { def, wanted } = missing[notCreated]!;
      return `creating ${def.resource} ${wanted.metadata.name}: ${result.ok ? '' : result.error.message ?? ''}`;
    }
    for (const [i, { def, wanted, isMandatory }] of wantedObjects.entries()) {
      const got = stored[i]!;
      if (!got.ok) continue;
      const error = await maintain(def, wanted, isMandatory, got.value);
      if (error !== undefined) return error;
    }
    return undefined;
  };

  /** Deletes auto-updated objects the bootstrap configuration no longer has. */
  const removeDangling = async (informer: Informer, known: ReadonlySet<string>): Promise<string | undefined> => {
    for (const o of informer.list()) {
      const name = o.metadata?.name ?? '';
      if (known.has(name) || o.metadata?.annotations?.[autoUpdate] !== 'true') continue;
      const removed = await deleteObject(registry, informer.def, '', name, loopbackContext(registry.names, 'apiserver'), { uid: o.metadata?.uid ?? '' });
      if (!removed.ok && removed.error.code !== 404 && removed.error.code !== 409) return `deleting ${informer.def.resource} ${name}: ${removed.error.message ?? ''}`;
    }
    return undefined;
  };

  const fsInformer = startInformer(registry, fsDef, { ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }), log });
  const plInformer = startInformer(registry, plDef, { ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }), log });
  const knownPls = new Set([...mandatory.priorityLevels, ...suggested.priorityLevels].map((o) => o.metadata.name));
  const knownFss = new Set([...mandatory.flowSchemas, ...suggested.flowSchemas].map((o) => o.metadata.name));

  const ensure = async (writer: StartupWriter = directWriter(registry)): Promise<string | undefined> => {
    const error = await ensureObjects(writer);
    if (error !== undefined) return error;
    await Promise.all([fsInformer.synced(), plInformer.synced()]);
    return (await removeDangling(fsInformer, knownFss)) ?? (await removeDangling(plInformer, knownPls));
  };

  // The consumer: one reconfiguration per burst of changes.
  let pending = false;
  const statusWrites = new Map<string, Promise<void>>();
  const writeDangling = (fs: FlowSchema, dangling: boolean): void => {
    const name = fs.metadata.name;
    const plName = fs.spec.priorityLevelConfiguration.name;
    const wanted: Omit<FlowSchemaCondition, 'lastTransitionTime'> = dangling
      ? { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" but there is no such object` }
      : { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" and it exists` };
    const current = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    if (current !== undefined && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) return;
    if (statusWrites.has(name)) return;
    const write = (async () => {
      const got = await registry.store.get(fsDef, '', name);
      if (!got.ok) return;
      const stored = got.value as unknown as FlowSchema;
      const others = (stored.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
      const previous = stored.status?.conditions?.find((c) => c.type === 'Dangling');
      const lastTransitionTime = previous !== undefined && previous.status === wanted.status && previous.lastTransitionTime !== undefined
        ? previous.lastTransitionTime : new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const next = { ...structuredClone(got.value), status: { conditions: [...others, { ...wanted, lastTransitionTime }] } } as KubeObject;
      const updated = await updateObject(registry, fsDef, 'status', next, got.value, loopbackContext(registry.names, 'apiserver'));
      if (!updated.ok && updated.error.code !== 409 && updated.error.code !== 404) log(`writing the status of flowschema ${name}: ${updated.error.message ?? ''}`);
    })().catch((e: unknown) => log(`writing the status of flowschema ${name}: ${String(e)}`)).finally(() => statusWrites.delete(name));
    statusWrites.set(name, write);
  };

  const reconfigure = (): void => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      if (!fsInformer.hasSynced() || !plInformer.hasSynced()) return;
      const fss = fsInformer.list() as unknown as FlowSchema[];
      const pls = plInformer.list() as unknown as PriorityLevelConfiguration[];
      controller.configure(fss, pls);
      // Dangling as the controller sees it: a level missing, draining away, or one it cannot use.
      for (const fs of fss) writeDangling(fs, controller.isDangling(fs));
    });
  };
  const offFs = fsInformer.onChange(reconfigure, { replay: true });
  const offPl = plInformer.onChange(reconfigure, { replay: true });
  void Promise.all([fsInformer.synced(), plInformer.synced()]).then(reconfigure);

  const writer = options.writer ?? directWriter(registry);
  const hook = runPostStartHook(async () => {
    try {
      return await ensure(writer);
    } finally {
      // The first round's place in the start-up batch is given up if it ended before creating.
      writer.release();
    }
  }, options.retryMs ?? 1000, log);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  void hook.done.then(() => {
    if (stopped) return;
    timer = setInterval(() => {
      void ensure().then((e) => e !== undefined && log(e), (e: unknown) => log(String(e)));
    }, options.ensureIntervalMs ?? 60_000);
    timer.unref();
  });
  return {
    checks: [{ name: 'poststarthook/priority-and-fairness-config-producer', check: hook.check }],
    ensure: () => ensure(),
    stop() {
      stopped = true;
      stopRunning();
      hook.stop();
      if (timer !== undefined) clearInterval(timer);
      offFs();
      offPl();
      fsInformer.stop();
      plInformer.stop();
    },
  };
}
