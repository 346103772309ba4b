/**
 * Whether a user may act for a signer (kube's certificates.IsAuthorizedForSignerName): the verb (`approve`, `sign`, `attest`)
 * on the `signers` resource of the certificates group named `<signerName>`, or else named `<domain>/*` for the
 * signer's domain. Only an allow counts: a deny, no opinion or an evaluation error is no.
 */
import type { Authorizer } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import type { RequestInfo } from '../../request/request-info.js';

/** True when `user` may `verb` for `signerName`. */
export async function isAuthorizedForSignerName(
  authorizer: Authorizer, user: UserInfo, verb: string, signerName: string, certificatesGroup: string,
): Promise<boolean> {
  const ask = async (name: string): Promise<boolean> => {
    const info: RequestInfo = {
      isResourceRequest: true, path: '', verb, apiPrefix: 'apis', apiGroup: certificatesGroup, apiVersion: '*', namespace: '',
      resource: 'signers', subresource: '', name, parts: [],
    };
    return (await authorizer.authorize({ user, info })).decision === 'allow';
  };
  if (await ask(signerName)) return true;
  return ask(`${signerName.split('/')[0]}/*`);
}
