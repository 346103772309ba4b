/**
 * Evaluation of a pod (or pod template) against a level and version (policy.checkRegistry.EvaluatePod and
 * AggregateCheckResults): the checks of the level whose implementation applies at the version — baseline checks
 * first, then restricted ones, each group by ID, restricted implementations replacing the baseline checks they
 * override — and their failures joined as `reason (detail), reason (detail)`.
 */
import type { Names } from '@svc-apiserver/api';
import type { Json } from '../object-access.js';
import { podSecurityChecks, type CheckPod, type VersionedCheck } from './pod-security-checks.js';
import { effectiveMinor, levelVersionString, type LevelVersion } from './policy-levels.js';

/** The failures of an evaluation; empty when the pod is allowed. */
export interface Evaluation {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  /** `reason (detail), ...` (AggregateCheckResult.ForbiddenDetail). */
  readonly detail: string;
}

/** Evaluates pods against levels and versions. */
export interface PodSecurityEvaluator {
  evaluate(lv: LevelVersion, annotations: Readonly<Record<string, string>>, spec: Json): Evaluation;
}

/** An evaluator over the 1.27 checks. */
export function podSecurityEvaluator(names: Names): PodSecurityEvaluator {
  const checks = podSecurityChecks(names);
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const baseline = checks.filter((c) => c.level === 'baseline').sort(byId);
  const restricted = checks.filter((c) => c.level === 'restricted').sort(byId);
  const at = (versions: readonly VersionedCheck[], minor: number): VersionedCheck | undefined =>
    [...versions].reverse().find((v) => v.minMinor <= minor);
  /** The checks that run for a level and version, in message order; computed once per pair. */
  const plans = new Map<string, CheckPod[]>();
  const plan = (lv: LevelVersion): CheckPod[] => {
    const key = levelVersionString(lv);
    const cached = plans.get(key);
    if (cached !== undefined) return cached;
    const minor = effectiveMinor(lv.version);
    const restrictedNow = lv.level === 'restricted'
      ? restricted.map((c) => at(c.versions, minor)).filter((v): v is VersionedCheck => v !== undefined)
      : [];
    const overridden = new Set(restrictedNow.flatMap((v) => v.overrides ?? []));
    const baselineNow = baseline.filter((c) => !overridden.has(c.id)).map((c) => at(c.versions, minor)).filter((v): v is VersionedCheck => v !== undefined);
    const made = lv.level === 'privileged' ? [] : [...baselineNow, ...restrictedNow].map((v) => v.check);
    plans.set(key, made);
    return made;
  };
  return {
    evaluate(lv, annotations, spec) {
      const reasons: string[] = [];
      const details: string[] = [];
      for (const check of plan(lv)) {
        const r = check(annotations, spec);
        if (!r.allowed) {
          reasons.push(r.reason);
          details.push(r.detail === '' ? r.reason : `${r.reason} (${r.detail})`);
        }
      }
      return { allowed: reasons.length === 0, reasons, detail: details.join(', ') };
    },
  };
}
