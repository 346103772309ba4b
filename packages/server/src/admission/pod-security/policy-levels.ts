/**
 * Pod Security levels, versions and the policy of a namespace (k8s.io/pod-security-admission/api): the levels
 * `privileged` < `baseline` < `restricted`, versions `v1.<minor>` or `latest`, and the policy read from the
 * namespace's `pod-security.<domain>/{enforce,audit,warn}[-version]` labels over the configured defaults — enforce
 * fails closed (an invalid level is `restricted`), audit and warn fail open (`privileged`), and warn follows an
 * explicitly stricter enforce level.
 */
import { fieldError, type FieldError, type Names } from '@svc-apiserver/api';

/** A Pod Security level. */
export type Level = 'privileged' | 'baseline' | 'restricted';

/** Levels from the most to the least permissive. */
export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: a minor of 1.x, or latest. */
export type PolicyVersion = { readonly latest: true } | { readonly latest: false; readonly minor: number };

/** The newest version the checks know (their highest minimum version). */
export const latestKnownMinor = 27;

/** A level at a version. */
export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

/** The three modes' levels. */
export interface PodSecurityPolicy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

/** `restricted:latest`, `baseline:v1.24`. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.version.latest ? 'latest' : `v1.${lv.version.minor}`}`;
}

/** The minor a version evaluates at: latest (and newer than known) is the newest known. */
export function effectiveMinor(version: PolicyVersion): number {
  return version.latest ? latestKnownMinor : Math.min(version.minor, latestKnownMinor);
}

/** Same level and version. */
export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.version.latest === b.version.latest && (a.version.latest || b.version.latest || a.version.minor === b.version.minor);
}

/** ParseLevel. */
export function parseLevel(text: string): Level | undefined {
  return (levels as readonly string[]).includes(text) ? (text as Level) : undefined;
}

/** ParseVersion: `latest` or `v1.<minor>` without leading zeros. */
export function parseVersion(text: string): PolicyVersion | undefined {
  if (text === 'latest') return { latest: true };
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(text);
  return m === null ? undefined : { latest: false, minor: Number(m[1]) };
}

export const levelError = 'must be one of privileged, baseline, restricted';
export const versionError = 'must be "latest" or "v1.x"';

/** The label keys of a flavour. */
export function policyLabels(names: Names) {
  const key = (k: string) => names.domain(k, 'pod-security');
  return {
    enforce: key('enforce'), enforceVersion: key('enforce-version'),
    audit: key('audit'), auditVersion: key('audit-version'),
    warn: key('warn'), warnVersion: key('warn-version'),
  };
}

/** The policy the labels give over the defaults, with the errors of invalid labels (api.PolicyToEvaluate). */
export function policyToEvaluate(
  labels: Readonly<Record<string, string>>, defaults: PodSecurityPolicy, names: Names,
): { policy: PodSecurityPolicy; errors: FieldError[] } {
  const keys = policyLabels(names);
  const errors: FieldError[] = [];
  const bad = (key: string, value: string, why: string) => errors.push(fieldError.invalid(`metadata.labels[${key}]`, value, why));
  let enforce = defaults.enforce;
  let audit = defaults.audit;
  let warn = defaults.warn;
  let enforceLevelSet = false;
  const level = (key: string, failed: Level, apply: (l: Level) => void): boolean => {
    const value = labels[key];
    if (value === undefined) return false;
    const parsed = parseLevel(value);
    if (parsed === undefined) bad(key, value, levelError);
    apply(parsed ?? failed);
    return parsed !== undefined;
  };
  const version = (key: string, apply: (v: PolicyVersion) => void): boolean => {
    const value = labels[key];
    if (value === undefined) return false;
    const parsed = parseVersion(value);
    if (parsed === undefined) bad(key, value, versionError);
    apply(parsed ?? { latest: true });
    return true;
  };
  enforceLevelSet = level(keys.enforce, 'restricted', (l) => (enforce = { ...enforce, level: l }));
  version(keys.enforceVersion, (v) => (enforce = { ...enforce, version: v }));
  level(keys.audit, 'privileged', (l) => (audit = { ...audit, level: l }));
  version(keys.auditVersion, (v) => (audit = { ...audit, version: v }));
  const warnLevelSet = labels[keys.warn] !== undefined;
  level(keys.warn, 'privileged', (l) => (warn = { ...warn, level: l }));
  const warnVersionSet = version(keys.warnVersion, (v) => (warn = { ...warn, version: v }));
  // Warn defaults to an explicitly set, stricter enforce level (and its version unless warn has one).
  if (!warnLevelSet && enforceLevelSet && levels.indexOf(enforce.level) > levels.indexOf(warn.level)) {
    warn = { level: enforce.level, version: warnVersionSet ? warn.version : enforce.version };
  }
  return { policy: { enforce, audit, warn }, errors };
}
