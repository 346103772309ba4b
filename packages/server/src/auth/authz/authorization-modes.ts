/**
 * The authorization modes and the checks of their flags (kube-apiserver's BuiltInAuthorizationOptions.Validate):
 * `--authorization-mode` is an ordered list of known modes without repeats, and `Webhook` and
 * `--authorization-webhook-config-file` go together.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { aggregateErrors } from './aggregate-errors.js';

/** The modes this server implements, in kube-apiserver's spelling. */
export const authorizationModes = ['AlwaysAllow', 'AlwaysDeny', 'RBAC', 'Webhook'] as const;

/** One authorization mode. */
export type AuthorizationMode = (typeof authorizationModes)[number];

/** Modes kube-apiserver 1.27 knows that this server does not implement: named in the error instead of "not valid". */
const unavailableModes: readonly string[] = ['ABAC', 'Node'];

/** The flags the checks read. */
export interface AuthorizationModeFlags {
  readonly modes: readonly string[];
  readonly webhookConfigFile: string;
}

const isMode = (m: string): m is AuthorizationMode => (authorizationModes as readonly string[]).includes(m);

/** Checks the modes; every problem is reported at once, joined as kube-apiserver joins them. */
export function validateAuthorizationModes(flags: AuthorizationModeFlags): Result<readonly AuthorizationMode[], string> {
  const errors: string[] = [];
  if (flags.modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const mode of flags.modes) {
    if (unavailableModes.includes(mode)) {
      errors.push(`authorization-mode ${JSON.stringify(mode)} is not available in this server (available: ${authorizationModes.join(',')})`);
    } else if (!isMode(mode)) {
      errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    }
    if (mode === 'Webhook' && flags.webhookConfigFile === '') errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (flags.webhookConfigFile !== '' && !flags.modes.includes('Webhook')) {
    errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  }
  if (new Set(flags.modes).size !== flags.modes.length) {
    // Go's %q of a string list: ["RBAC" "RBAC"].
    errors.push(`authorization-mode [${flags.modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  }
  const error = aggregateErrors(errors);
  if (error !== undefined) return fail(error);
  return ok(flags.modes.filter(isMode));
}

/**
 * Parses `--authorization-webhook-version`: `v1beta1` or `v1` (the group-qualified form of the authorization group
 * is accepted too).
 */
export function parseAuthorizationWebhookVersion(value: string): 'v1' | 'v1beta1' | undefined {
  const v = value.replace(/^authorization\.[a-z0-9.]+\//, '');
  return v === 'v1' || v === 'v1beta1' ? v : undefined;
}
