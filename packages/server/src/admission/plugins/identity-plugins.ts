/**
 * The admission plugins of service accounts and certificate signing requests: they need the server's authorizer and
 * service account reader (plugin-initializers.ts), so registries built without a server (handler tests) leave them
 * out by these names.
 */
import { certificateApprovalPluginName } from './certificate-approval.js';
import { certificateSigningPluginName } from './certificate-signing.js';
import { certificateSubjectRestrictionPluginName } from './certificate-subject-restriction.js';
import { serviceAccountPluginName } from './service-account.js';

/** Their `--disable-admission-plugins` names. */
export const identityAdmissionPlugins: readonly string[] = [
  serviceAccountPluginName, certificateApprovalPluginName, certificateSigningPluginName, certificateSubjectRestrictionPluginName,
];
