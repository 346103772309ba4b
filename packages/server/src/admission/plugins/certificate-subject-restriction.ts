/**
 * CertificateSubjectRestriction (plugin/pkg/admission/certificates/subjectrestriction): a new
 * CertificateSigningRequest for the API client signer whose request names the `system:masters` organization is
 * refused (403), since a certificate for that group would bypass authorization. A request that does not parse is
 * left to validation.
 */
import type { Names } from '@svc-apiserver/api';
import { parseCertificateRequest } from '../../pki/csr.js';
import { bytesField, signerNameOf, type CsrObject } from '../../pki/csr-object.js';
import type { AdmissionPlugin, AdmissionResult } from '../plugin.js';
import { admissionForbidden } from './admission-forbidden.js';

/** The plugin's name as `--enable-admission-plugins` spells it. */
export const certificateSubjectRestrictionPluginName = 'CertificateSubjectRestriction';

/** The group whose members every authorizer of this server allows everything. */
const mastersGroup = 'system:masters';

const allowed: AdmissionResult = { allowed: true };

/** Creates the plugin. */
export function certificateSubjectRestrictionPlugin(names: Names): AdmissionPlugin {
  const group = names.group('certificates');
  const apiClientSigner = names.name('signerApiClient');
  return {
    name: certificateSubjectRestrictionPluginName,
    enabledByDefault: true,
    handles: (operation) => operation === 'CREATE',
    actsOn: (g, resource) => g === group && resource === 'certificatesigningrequests',
    async validate(a) {
      if (a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== '') return allowed;
      const csr = (a.object ?? {}) as CsrObject;
      if (signerNameOf(csr) !== apiClientSigner) return allowed;
      const request = bytesField(csr.spec?.request);
      const parsed = request === undefined ? undefined : parseCertificateRequest(request);
      if (parsed === undefined || !parsed.ok) return allowed;
      if (!parsed.value.organizations.includes(mastersGroup)) return allowed;
      return {
        allowed: false,
        status: admissionForbidden(a, `use of ${apiClientSigner} signer with ${mastersGroup} group is not allowed`),
      };
    },
  };
}
