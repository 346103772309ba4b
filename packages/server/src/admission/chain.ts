/**
 * The admission chain: the enabled plugins, each mutating plugin's `admit` in order, then each validating plugin's
 * `validate` in order; the first rejection fails the request (k8s.io/apiserver/pkg/admission chainAdmissionHandler).
 */
import { badRequest, fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { AdmissionAttributes, AdmissionDependencies, AdmissionPlugin, AdmissionResult } from './plugin.js';
import { pluginFactories } from './plugins/index.js';

/** The enabled plugins as one unit. */
export interface AdmissionChain {
  /** Enabled plugins, in run order. */
  readonly plugins: readonly AdmissionPlugin[];
  /** Hands the registry's read access to the plugins that need it. */
  initialize(dependencies: AdmissionDependencies): void;
  /** Mutating phase. */
  admit(attributes: AdmissionAttributes): Promise<AdmissionResult>;
  /** Validating phase. */
  validate(attributes: AdmissionAttributes): Promise<AdmissionResult>;
}

/** Which plugins to run beyond (or instead of) the default ones. */
export interface AdmissionChainOptions {
  readonly enable?: readonly string[];
  readonly disable?: readonly string[];
  readonly names: Names;
}

/** Builds the chain; an unknown plugin name is an error. */
export function createAdmissionChain(options: AdmissionChainOptions): Result<AdmissionChain> {
  const all = pluginFactories.map((make) => make(options.names));
  const known = new Set(all.map((p) => p.name));
  for (const [flag, list] of [['enable-admission-plugins', options.enable], ['disable-admission-plugins', options.disable]] as const) {
    for (const name of list ?? []) {
      if (!known.has(name)) return fail(badRequest(`${flag} plugin "${name}" is unknown`));
    }
  }
  const enable = new Set(options.enable ?? []);
  const disable = new Set(options.disable ?? []);
  const plugins = all.filter((p) => !disable.has(p.name) && (p.enabledByDefault || enable.has(p.name)));
  return ok(chainOf(plugins));
}

/** A chain over given plugins (tests build chains of their own plugins with it). */
export function chainOf(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const run = async (phase: 'admit' | 'validate', a: AdmissionAttributes): Promise<AdmissionResult> => {
    for (const p of plugins) {
      const step = p[phase];
      if (step === undefined || !p.handles(a.operation)) continue;
      const result = await step.call(p, a);
      if (!result.allowed) return result;
    }
    return { allowed: true };
  };
  return {
    plugins,
    initialize(dependencies) {
      for (const p of plugins) {
        const init = (p as { initialize?: (d: AdmissionDependencies) => void }).initialize;
        init?.call(p, dependencies);
      }
    },
    admit: (a) => run('admit', a),
    validate: (a) => run('validate', a),
  };
}
