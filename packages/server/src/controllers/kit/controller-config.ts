/**
 * Settings of individual controllers (kube-controller-manager's ComponentConfig as its ControllerContext carries
 * it): what the server hands the controllers that need more than the registry — keys, CAs, the authorizer, a clock.
 * A controller started without what it needs is a bug of its caller.
 */
import type { Authorizer } from '../../request/authorizer.js';
import type { ServiceAccountTokenIssuer } from '../../auth/serviceaccount/token-issuer.js';
import type { SigningCa } from '../../pki/signing-ca.js';
import type { Clock } from './clock.js';

/** The built-in signers (csrsigning). */
export interface CsrSigningConfig {
  /** The CA of each built-in signer, by signer name. */
  readonly cas: ReadonlyMap<string, SigningCa>;
  /** `--cluster-signing-duration`: the longest lifetime issued. */
  readonly durationMs: number;
}

/** What controllers are configured with. */
export interface ControllerConfig {
  /** The time of time-driven controllers (cleaners, expiry, signing); default the system clock. */
  readonly clock?: Clock;
  /** The CA bundle (PEM) that verifies this server: published in every namespace and put in token Secrets. */
  readonly rootCaPem?: string;
  /** Signs the tokens of legacy token Secrets (`--service-account-private-key-file`). */
  readonly legacyTokenIssuer?: ServiceAccountTokenIssuer;
  readonly csrSigning?: CsrSigningConfig;
  /** The authorizer the CSR approver asks, as kube's asks with SubjectAccessReviews. */
  readonly authorizer?: Authorizer;
}

/** `value`, or a thrown bug naming the controller and the setting it was started without. */
export function required<T>(value: T | undefined, controller: string, setting: string): T {
  if (value === undefined) throw new Error(`controller ${controller} started without ${setting}`);
  return value;
}
