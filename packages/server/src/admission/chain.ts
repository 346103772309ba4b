/**
 * The admission chain: the enabled plugins in kube-apiserver's fixed order, each mutating plugin's `admit` in
 * order, then each validating plugin's `validate` in order; the first rejection fails the request
 * (k8s.io/apiserver/pkg/admission chainAdmissionHandler). When a plugin asks for it (a webhook changed the object),
 * the mutating phase runs a second time (admission.reinvoker). Each phase and each plugin is timed into the
 * admission metrics.
 */
import { badRequest, fail, ok, type Names, type Result } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../feature-gates.js';
import { emptyAdmissionConfiguration, type AdmissionConfiguration } from './admission-configuration.js';
import { admissionInformerPool, type AdmissionInformerPool } from './admission-informers.js';
import { admissionMetrics, type AdmissionMetrics } from './admission-metrics.js';
import {
  admitted, defaultAdmissionFlags,
  type AdmissionAttributes, type AdmissionDependencies, type AdmissionFlags, type AdmissionPlugin, type AdmissionResult,
  type ReinvocationContext, withMachinery,
} from './plugin.js';
import { madeName } from './plugin-configuration.js';
import { defaultOnPlugins, runOrderIndex } from './plugin-order.js';
import { pluginFactories } from './plugins/index.js';
import type { AdmissionInterface } from '../registry/registry.js';

/** The enabled plugins as one unit: the admission the registry runs on every write. */
export interface AdmissionChain extends AdmissionInterface {
  /** Enabled plugins, in run order. */
  readonly plugins: readonly AdmissionPlugin[];
  /** Hands the registry's read access (and, with it, shared informers) to the plugins that need it. */
  initialize(dependencies: AdmissionDependencies): void;
}

/** Which plugins to run beyond (or instead of) the default ones, and how they are configured. */
export interface AdmissionChainOptions {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
  readonly names: Names;
  /** `--admission-control-config-file`, loaded. */
  readonly configuration?: AdmissionConfiguration;
  readonly flags?: AdmissionFlags;
  /** Default: the server's metrics. */
  readonly metrics?: AdmissionMetrics;
  /** The server's feature gates; default 1.27's. */
  readonly featureGates?: FeatureGates;
}

/** Builds the chain; an unknown plugin name or a configuration a plugin refuses is an error. */
export function createAdmissionChain(options: AdmissionChainOptions): Result<AdmissionChain> {
  const configuration = options.configuration ?? emptyAdmissionConfiguration;
  const metrics = options.metrics ?? admissionMetrics();
  const init = {
    configuration: (name: string) => configuration.configuration(name), flags: options.flags ?? defaultAdmissionFlags, metrics,
    featureGates: options.featureGates ?? defaultFeatureGates,
  };
  const made = pluginFactories.map((make) => make(options.names, init));
  const known = new Set(made.map(madeName));
  for (const [flag, list] of [['enable-admission-plugins', options.enable], ['disable-admission-plugins', options.disable]] as const) {
    for (const name of list ?? []) {
      if (!known.has(name)) return fail(badRequest(`${flag} plugin "${name}" is unknown`));
    }
  }
  const enable = new Set(options.enable ?? []);
  const disable = new Set(options.disable ?? []);
  const plugins: AdmissionPlugin[] = [];
  for (const m of made) {
    const name = madeName(m);
    const byDefault = m.ok ? m.value.enabledByDefault : defaultOnPlugins.has(name);
    if (disable.has(name) || !(enable.has(name) || byDefault)) continue;
    // A configuration a plugin refuses stops the start only when the plugin would run (kube reads it then).
    if (!m.ok) return fail(badRequest(m.error.error));
    plugins.push(m.value);
  }
  return ok(chainOf(plugins, metrics));
}

/** The per-request state of the mutating passes. */
function reinvocationContext(): ReinvocationContext & { shouldReinvoke: boolean; isReinvoke: boolean } {
  const values = new Map<string, unknown>();
  return {
    isReinvoke: false,
    shouldReinvoke: false,
    requestReinvocation() {
      this.shouldReinvoke = true;
    },
    value: (key) => values.get(key),
    setValue: (key, value) => void values.set(key, value),
  };
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown }).then === 'function';

/** Seconds since `start` (a performance.now() reading). */
const since = (start: number): number => (performance.now() - start) / 1000;

/** A plugin's step in one phase for one resource and operation: called, or only counted (it cannot act there). */
interface PhaseStep {
  readonly plugin: AdmissionPlugin;
  readonly step: NonNullable<AdmissionPlugin['admit']>;
  readonly acts: boolean;
  /** Its duration series when it allows the request (the common outcome), found once. */
  readonly allowed: { observe(seconds: number): void };
}

/** Distinct resources and operations indexed before the index starts over (custom resources come and go). */
const maxIndexedResources = 4096;

/** A chain over given plugins (tests build chains of their own plugins with it), sorted into the run order. */
export function chainOf(plugins: readonly AdmissionPlugin[], metrics: AdmissionMetrics = admissionMetrics()): AdmissionChain {
  const ordered = [...plugins].sort((a, b) => runOrderIndex(a.name) - runOrderIndex(b.name));
  let pool: AdmissionInformerPool | undefined;
  // The steps of each phase for each operation and resource, worked out on first use: the plugins that handle the
  // operation, and of those, which can act on the resource. Looked up by phase, operation, group and resource in
  // turn, so that no key is built per request.
  type ByResource = Map<string, Map<string, Map<string, readonly PhaseStep[]>>>;
  const index: Record<'admit' | 'validate', ByResource> = { admit: new Map(), validate: new Map() };
  let indexed = 0;
  const stepsFor = (phase: 'admit' | 'validate', a: AdmissionAttributes): readonly PhaseStep[] => {
    const found = index[phase].get(a.operation)?.get(a.group)?.get(a.resource);
    if (found !== undefined) return found;
    const steps = ordered.flatMap((plugin) => {
      const step = plugin[phase];
      if (step === undefined || !plugin.handles(a.operation)) return [];
      return [{
        plugin, step, acts: plugin.actsOn?.(a.group, a.resource) ?? true, allowed: metrics.controllerSeries(plugin.name, phase, a.operation, false),
      }];
    });
    if (++indexed > maxIndexedResources) {
      index.admit.clear();
      index.validate.clear();
      indexed = 1;
    }
    const byOperation = index[phase];
    let groups = byOperation.get(a.operation);
    if (groups === undefined) byOperation.set(a.operation, (groups = new Map()));
    let resources = groups.get(a.group);
    if (resources === undefined) groups.set(a.group, (resources = new Map()));
    resources.set(a.resource, steps);
    return steps;
  };
  const run = async (phase: 'admit' | 'validate', a: AdmissionAttributes): Promise<AdmissionResult> => {
    for (const { plugin, step, acts, allowed } of stepsFor(phase, a)) {
      if (!acts) {
        // kube calls every plugin that handles the operation and times it; one that cannot act on the resource
        // answers at once, so it is counted as kube counts it, in no time, without being called.
        allowed.observe(0);
        continue;
      }
      const started = performance.now();
      const answer = step.call(plugin, a);
      const result = isPromise(answer) ? await answer : answer;
      if (result.allowed) allowed.observe(since(started));
      else {
        metrics.observeController(plugin.name, phase, a.operation, true, since(started));
        return result;
      }
    }
    return admitted;
  };
  return {
    plugins: ordered,
    initialize(dependencies) {
      if (dependencies.registry !== undefined && dependencies.informers === undefined) {
        pool?.stop();
        pool = admissionInformerPool(dependencies.registry);
      }
      const given: AdmissionDependencies = pool === undefined ? dependencies : { ...dependencies, informers: pool };
      for (const p of ordered) {
        const init = (p as { initialize?: (d: AdmissionDependencies) => void }).initialize;
        init?.call(p, given);
      }
    },
    async admit(a) {
      const started = performance.now();
      const reinvocation = reinvocationContext();
      const attributes = withMachinery({ ...a }, 'reinvocation', reinvocation);
      if (a.recorder !== undefined) withMachinery(attributes, 'recorder', a.recorder);
      let result = await run('admit', attributes);
      if (result.allowed && reinvocation.shouldReinvoke) {
        reinvocation.isReinvoke = true;
        result = await run('admit', attributes);
      }
      metrics.observeStep('admit', a.operation, !result.allowed, since(started));
      return result;
    },
    async validate(a) {
      const started = performance.now();
      const result = await run('validate', a);
      metrics.observeStep('validate', a.operation, !result.allowed, since(started));
      return result;
    },
    close() {
      for (const p of ordered) p.close?.();
      pool?.stop();
      pool = undefined;
    },
  };
}
