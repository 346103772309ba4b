/**
 * Feature gates (`--feature-gates=Name=bool,...`, k8s.io/component-base/featuregate): the gates this server knows,
 * with kube-apiserver 1.27's defaults. An unknown gate or a value that is not a bool fails the start, as it does
 * in kube-apiserver.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

/** The known gates and their 1.27 defaults. */
export const defaultFeatureGates = {
  /** Beta since 1.9: `limit`/`continue` pagination of lists. */
  APIListChunking: true,
  /** Alpha in 1.27: watches with `sendInitialEvents=true` (WatchList). */
  WatchList: false,
  /** Beta since 1.25: `x-kubernetes-validations` rules in CRD schemas are compiled and enforced. */
  CustomResourceValidationExpressions: true,
  /**
   * Alpha in 1.26: the ValidatingAdmissionPolicy admission plugin enforces policies (their API,
   * `admissionregistration/v1alpha1`, is enabled apart with `--runtime-config`).
   */
  ValidatingAdmissionPolicy: false,
  /** Alpha in 1.27: `matchConditions` of admission webhooks (and policies) decide whether they are called. */
  AdmissionWebhookMatchConditions: false,
  /** Beta since 1.20: API Priority and Fairness classifies and queues requests instead of the max-in-flight limit. */
  APIPriorityAndFairness: true,
  /** Beta since 1.26: every API server keeps an identity Lease in the system namespace; expired ones are collected. */ APIServerIdentity: true,
} as const satisfies Record<string, boolean>;

/** A known gate. */
export type FeatureGate = keyof typeof defaultFeatureGates;

/** Every gate's state. */
export type FeatureGates = Readonly<Record<FeatureGate, boolean>>;

/** Parses one `--feature-gates` value onto `base` (later flags override earlier ones), or says why it is invalid. */
export function parseFeatureGates(value: string, base: FeatureGates = defaultFeatureGates): Result<FeatureGates, string> {
  const out: Record<string, boolean> = { ...base };
  for (const part of value.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq < 0) return fail(`missing bool value for ${entry}`);
    const name = entry.slice(0, eq).trim();
    const raw = entry.slice(eq + 1).trim();
    if (!Object.prototype.hasOwnProperty.call(defaultFeatureGates, name)) return fail(`unrecognized feature gate: ${name}`);
    // Go's strconv.ParseBool forms.
    const truthy = ['1', 't', 'T', 'TRUE', 'true', 'True'];
    const falsy = ['0', 'f', 'F', 'FALSE', 'false', 'False'];
    if (truthy.includes(raw)) out[name] = true;
    else if (falsy.includes(raw)) out[name] = false;
    else return fail(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
  }
  return ok(out as FeatureGates);
}
