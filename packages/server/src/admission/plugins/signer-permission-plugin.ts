/**
 * The shape CertificateApproval and CertificateSigning share: an update of one subresource of a
 * CertificateSigningRequest, when it changes what that subresource is for, needs a verb on `signers` for the
 * request's signer (kube's certificates.IsAuthorizedForSignerName); otherwise 403 "user not permitted to <verb>
 * requests with signerName ...".
 */
import type { Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import { signerNameOf, type CsrObject } from '../../pki/csr-object.js';
import type { AdmissionResult } from '../plugin.js';
import { admissionForbidden } from './admission-forbidden.js';
import type { WantsAuthorizer } from './plugin-initializers.js';
import { isAuthorizedForSignerName } from './signer-authorization.js';

/** What one such plugin checks. */
export interface SignerPermission {
  readonly name: string;
  readonly subresource: string;
  readonly verb: string;
  /** Whether the update needs the permission at all. */
  needsPermission(csr: CsrObject, old: CsrObject): boolean;
  /** The request whose signer is checked: the new object or the stored one. */
  signerOf(csr: CsrObject, old: CsrObject): CsrObject;
}

const allowed: AdmissionResult = { allowed: true };

/** Creates the plugin `permission` describes. */
export function signerPermissionPlugin(names: Names, permission: SignerPermission): WantsAuthorizer {
  const group = names.group('certificates');
  let authorizer: Authorizer | undefined;
  return {
    name: permission.name,
    enabledByDefault: true,
    setAuthorizer(a) {
      authorizer = a;
    },
    handles: (operation) => operation === 'UPDATE',
    actsOn: (g, resource) => g === group && resource === 'certificatesigningrequests',
    async validate(a) {
      if (a.group !== group || a.resource !== 'certificatesigningrequests' || a.subresource !== permission.subresource) return allowed;
      const csr = (a.object ?? {}) as CsrObject;
      const old = (a.oldObject ?? {}) as CsrObject;
      if (!permission.needsPermission(csr, old)) return allowed;
      if (authorizer === undefined) throw new Error(`${permission.name} used before it was given an authorizer`);
      const signerName = signerNameOf(permission.signerOf(csr, old));
      if (await isAuthorizedForSignerName(authorizer, a.user, permission.verb, signerName, group)) return allowed;
      return { allowed: false, status: admissionForbidden(a, `user not permitted to ${permission.verb} requests with signerName ${JSON.stringify(signerName)}`) };
    },
  };
}
