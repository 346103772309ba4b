/**
 * Builds request authorization from the flags (kube-apiserver's BuiltInAuthorizationOptions.ToAuthorizationConfig
 * and authorizer.Config.New): the privileged groups authorizer (`system:masters`) first, then the modes of
 * `--authorization-mode` in order, as one union where the first allow or deny wins.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import { loadWebhookConnection } from '../../outbound/webhook-connection.js';
import { alwaysAllow } from './always-allow.js';
import { alwaysDeny } from './always-deny.js';
import { parseAuthorizationWebhookVersion, validateAuthorizationModes, type AuthorizationMode } from './authorization-modes.js';
import type { Authorizer } from '../../request/authorizer.js';
import { authorizerUnion } from './authorizer-union.js';
import { privilegedGroups } from './privileged-groups.js';
import { webhookAuthorizer, type WebhookRetry } from './webhook-authorizer.js';

/** The flags authorization reads (`--authorization-*`, kube-apiserver's BuiltInAuthorizationOptions). */
export interface AuthorizationFlags {
  /** `--authorization-mode`: ordered modes (AlwaysAllow, AlwaysDeny, RBAC, Webhook); the first allow or deny wins. */
  readonly authorizationModes: readonly string[];
  readonly authorizationWebhookConfigFile: string;
  /** `v1beta1` or `v1`. */
  readonly authorizationWebhookVersion: string;
  readonly authorizationWebhookCacheAuthorizedTtlMs: number;
  readonly authorizationWebhookCacheUnauthorizedTtlMs: number;
}

/** What building authorization needs besides the flags. */
export interface AuthorizationDeps {
  readonly names: Names;
  /** Builds the RBAC authorizer; called only when the RBAC mode is on. */
  readonly rbac: () => Authorizer;
  readonly log: (message: string) => void;
  /** Retries of a failed webhook call (default: the webhook authorizer's). */
  readonly webhookRetry?: WebhookRetry;
}

/** Built authorization. */
export interface Authorization {
  /** The union: privileged groups, then the modes. Serves the filters, the handlers and the access reviews. */
  readonly authorizer: Authorizer;
  /** The modes in order. */
  readonly modes: readonly AuthorizationMode[];
}

/** Builds authorization; an error value names the bad flag (the server does not start then). */
export function buildAuthorization(flags: AuthorizationFlags, deps: AuthorizationDeps): Result<Authorization, string> {
  const modes = validateAuthorizationModes({ modes: flags.authorizationModes, webhookConfigFile: flags.authorizationWebhookConfigFile });
  if (!modes.ok) return modes;
  const members: Authorizer[] = [privilegedGroups()];
  for (const mode of modes.value) {
    switch (mode) {
      case 'AlwaysAllow':
        members.push(alwaysAllow());
        break;
      case 'AlwaysDeny':
        members.push(alwaysDeny());
        break;
      case 'RBAC':
        members.push(deps.rbac());
        break;
      case 'Webhook': {
        const version = parseAuthorizationWebhookVersion(flags.authorizationWebhookVersion);
        if (version === undefined) {
          return fail(`--authorization-webhook-version must be v1beta1 or v1, not ${JSON.stringify(flags.authorizationWebhookVersion)}`);
        }
        const connection = loadWebhookConnection(flags.authorizationWebhookConfigFile);
        if (!connection.ok) return fail(`--authorization-webhook-config-file: ${connection.error}`);
        members.push(webhookAuthorizer({
          names: deps.names,
          connection: connection.value,
          version,
          authorizedTtlMs: flags.authorizationWebhookCacheAuthorizedTtlMs,
          unauthorizedTtlMs: flags.authorizationWebhookCacheUnauthorizedTtlMs,
          ...(deps.webhookRetry !== undefined ? { retry: deps.webhookRetry } : {}),
          log: deps.log,
        }));
        break;
      }
    }
  }
  return ok({ authorizer: authorizerUnion(members), modes: modes.value });
}
