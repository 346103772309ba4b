/**
 * What some plugins need beyond {@link AdmissionDependencies}, handed to them once the server has built it (kube's
 * plugin initializers WantsAuthorizer and WantsExternalKubeInformerFactory): the server's authorizer, and a reader of
 * service accounts. A plugin declares what it wants by implementing the matching interface.
 */
import type { KubeObject, Result } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { AdmissionPlugin } from '../plugin.js';

/**
 * Reads a service account: from the watch cache with `cached` (kube's lister; may lag storage), else from storage
 * (kube's live client lookup). A missing account is not an error: the value is undefined; the error says why the
 * account could not be read.
 */
export type ServiceAccountReader = (namespace: string, name: string, options: { readonly cached: boolean }) => Promise<Result<KubeObject | undefined, string>>;

/** A plugin that asks the authorizer (CertificateApproval, CertificateSigning). */
export interface WantsAuthorizer extends AdmissionPlugin {
  setAuthorizer(authorizer: Authorizer): void;
}

/** A plugin that reads service accounts (ServiceAccount). */
export interface WantsServiceAccounts extends AdmissionPlugin {
  setServiceAccountReader(reader: ServiceAccountReader): void;
}

/** What {@link initializePlugins} hands out. */
export interface PluginInitialization {
  readonly authorizer: Authorizer;
  readonly serviceAccounts: ServiceAccountReader;
}

/** Hands each plugin of the chain what it wants. */
export function initializePlugins(plugins: readonly AdmissionPlugin[], init: PluginInitialization): void {
  for (const p of plugins) {
    if ('setAuthorizer' in p && typeof p.setAuthorizer === 'function') (p as WantsAuthorizer).setAuthorizer(init.authorizer);
    if ('setServiceAccountReader' in p && typeof p.setServiceAccountReader === 'function') {
      (p as WantsServiceAccounts).setServiceAccountReader(init.serviceAccounts);
    }
  }
}
