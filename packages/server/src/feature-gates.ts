/**
 * Feature gates (`--feature-gates=Name=bool,...`, k8s.io/component-base/featuregate): every gate kube-apiserver 1.27
 * knows (feature-gates-table.ts), set as kube sets them (document 1 §Feature gate lifecycle):
 *
 * - an unknown name fails the start (`unrecognized feature gate: X`), as does a value that is not one of Go's
 *   booleans or an entry without `=`;
 * - a gate locked to its default (a GA feature that is always on) cannot be set otherwise (`cannot set feature gate
 *   X to false, feature is locked to true`);
 * - setting a GA or deprecated gate is allowed but warned about, as klog warns;
 * - `AllAlpha` / `AllBeta` set every alpha / beta gate not set explicitly, in the same flag or an earlier one;
 * - the flag may be given more than once, each adding to what the earlier ones set.
 *
 * Gates this server implements change its behaviour (APIListChunking, WatchList, APIPriorityAndFairness,
 * ValidatingAdmissionPolicy, AdmissionWebhookMatchConditions, CustomResourceValidationExpressions,
 * APISelfSubjectReview); the others
 * are accepted and reported (`kubernetes_feature_enabled`) so that a kube-apiserver command line starts this server.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { featureGateTable, type FeatureSpec, type FeatureStage } from './feature-gates-table.js';

export type { FeatureSpec, FeatureStage } from './feature-gates-table.js';

/** A gate kube-apiserver 1.27 knows, the two switches over the alpha and beta gates included. */
export type FeatureGate = keyof typeof featureGateTable | 'AllAlpha' | 'AllBeta';

/** Every gate's state. */
export type FeatureGates = Readonly<Record<FeatureGate, boolean>>;

/** The switches over every alpha (beta) gate not set explicitly (component-base's allAlphaGate, allBetaGate). */
const specialGates: Readonly<Record<'AllAlpha' | 'AllBeta', FeatureSpec>> = {
  AllAlpha: { default: false, stage: 'ALPHA' },
  AllBeta: { default: false, stage: 'BETA' },
};

/** Every name `--feature-gates` accepts, with its spec. */
export const knownFeatureGates: Readonly<Record<FeatureGate, FeatureSpec>> = { ...specialGates, ...featureGateTable };

/** Every gate at its 1.27 default. */
export const defaultFeatureGates: FeatureGates = Object.fromEntries(
  Object.entries(knownFeatureGates).map(([name, spec]) => [name, spec.default]),
) as Record<FeatureGate, boolean>;

/**
 * The gates set by flags so far (kube's `enabled` map): what `AllAlpha`/`AllBeta` leave alone and later flags
 * override.
 */
export type FeatureGateSettings = Readonly<Record<string, boolean>>;

/** The settings after one flag, and the warnings it earned. */
export interface FeatureGateUpdate {
  readonly settings: FeatureGateSettings;
  /** kube's klog warnings (setting a GA or deprecated gate), to be written to stderr. */
  readonly warnings: readonly string[];
}

// Go's strconv.ParseBool forms.
const truthy: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const falsy: ReadonlySet<string> = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Applies one `--feature-gates` value to the settings of earlier flags (featureGate.Set): entries are read first
 * (a malformed one fails before anything is set), then applied in the order given, a repeated name keeping its
 * last value as Go's map does.
 */
export function setFeatureGates(value: string, settings: FeatureGateSettings = {}): Result<FeatureGateUpdate, string> {
  const entries = new Map<string, boolean>();
  for (const part of value.split(',')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (eq < 0) return fail(`missing bool value for ${name}`);
    const raw = part.slice(eq + 1).trim();
    if (!truthy.has(raw) && !falsy.has(raw)) {
      return fail(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    }
    entries.delete(name);
    entries.set(name, truthy.has(raw));
  }
  const out: Record<string, boolean> = { ...settings };
  const warnings: string[] = [];
  for (const [name, on] of entries) {
    const spec = has(knownFeatureGates, name) ? knownFeatureGates[name as FeatureGate] : undefined;
    if (spec === undefined) return fail(`unrecognized feature gate: ${name}`);
    if (spec.lockToDefault === true && spec.default !== on) {
      return fail(`cannot set feature gate ${name} to ${on}, feature is locked to ${spec.default}`);
    }
    out[name] = on;
    const special = has(specialGates, name) ? specialGates[name as keyof typeof specialGates] : undefined;
    if (special !== undefined) {
      for (const [gate, s] of Object.entries(featureGateTable)) if (s.stage === special.stage && !has(out, gate)) out[gate] = on;
    }
    if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${on}. It will be removed in a future release.`);
    else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${on}. It will be removed in a future release.`);
  }
  return ok({ settings: out, warnings });
}

/** Every gate's state under `settings` (featureGate.Enabled): the setting, else the default. */
export function resolveFeatureGates(settings: FeatureGateSettings): FeatureGates {
  const out: Record<string, boolean> = {};
  for (const [name, spec] of Object.entries(knownFeatureGates)) out[name] = has(settings, name) ? settings[name]! : spec.default;
  return out as Record<FeatureGate, boolean>;
}

/**
 * Parses one `--feature-gates` value onto the defaults (tests, and callers without earlier flags), or says why it
 * is invalid.
 */
export function parseFeatureGates(value: string): Result<FeatureGates, string> {
  const update = setFeatureGates(value);
  return update.ok ? ok(resolveFeatureGates(update.value.settings)) : update;
}

/** One gate as `kubernetes_feature_enabled` reports it: its name, its stage (kube's, GA as ""), on or off. */
export interface FeatureGateState {
  readonly name: string;
  readonly stage: '' | Exclude<FeatureStage, 'GA'>;
  readonly enabled: boolean;
}

/** Every known gate with its state, the two switches included as kube reports them (featureGate.AddMetrics). */
export function featureGateStates(gates: FeatureGates): FeatureGateState[] {
  return Object.entries(knownFeatureGates).map(([name, spec]) => ({
    name,
    stage: spec.stage === 'GA' ? '' : spec.stage,
    enabled: gates[name as FeatureGate],
  }));
}

/**
 * The gates a user may still set, as `--help` lists them (featureGate.KnownFeatures): alpha and beta ones only,
 * `Name=true|false (STAGE - default=...)`, sorted.
 */
export function settableFeatureGates(): string[] {
  return Object.entries(knownFeatureGates)
    .filter(([, spec]) => spec.stage === 'ALPHA' || spec.stage === 'BETA')
    .map(([name, spec]) => `${name}=true|false (${spec.stage} - default=${spec.default})`)
    .sort();
}
