/**
 * CertificateSigning (plugin/pkg/admission/certificates/signing): an update of the `status` subresource of a
 * CertificateSigningRequest that changes `status.certificate` needs `sign` on `signers` for the stored request's
 * signer (or its `<domain>/*`); otherwise 403 "user not permitted to sign requests with signerName ...". Status
 * writes that leave the certificate alone (conditions) are not checked.
 */
import type { Names } from '@svc-apiserver/api';
import type { WantsAuthorizer } from './plugin-initializers.js';
import { signerPermissionPlugin } from './signer-permission-plugin.js';

/** The plugin's name as `--enable-admission-plugins` spells it. */
export const certificateSigningPluginName = 'CertificateSigning';

/** Creates the plugin. */
export function certificateSigningPlugin(names: Names): WantsAuthorizer {
  return signerPermissionPlugin(names, {
    name: certificateSigningPluginName,
    subresource: 'status',
    verb: 'sign',
    needsPermission: (csr, old) => JSON.stringify(csr.status?.certificate ?? '') !== JSON.stringify(old.status?.certificate ?? ''),
    signerOf: (_csr, old) => old,
  });
}
