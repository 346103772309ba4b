/**
 * CertificateApproval (plugin/pkg/admission/certificates/approval): an update of the `approval` subresource of a
 * CertificateSigningRequest needs `approve` on `signers` for the request's signer (or its `<domain>/*`); otherwise
 * 403 "user not permitted to approve requests with signerName ...". The signer checked is the one of the object as
 * it will be stored.
 */
import type { Names } from '@svc-apiserver/api';
import type { WantsAuthorizer } from './plugin-initializers.js';
import { signerPermissionPlugin } from './signer-permission-plugin.js';

/** The plugin's name as `--enable-admission-plugins` spells it. */
export const certificateApprovalPluginName = 'CertificateApproval';

/** Creates the plugin. */
export function certificateApprovalPlugin(names: Names): WantsAuthorizer {
  return signerPermissionPlugin(names, {
    name: certificateApprovalPluginName,
    subresource: 'approval',
    verb: 'approve',
    needsPermission: () => true,
    signerOf: (csr) => csr,
  });
}
