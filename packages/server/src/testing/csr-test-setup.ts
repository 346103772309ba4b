/**
 * A registry with CertificateSigningRequests for the certificate controllers' tests: a request created as a user,
 * approval and denial through the approval subresource, and reads.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import { testRegistry, type TestRegistry } from './test-registry.js';
import { testCertificateRequest, type TestRequestOptions } from './test-requests.js';
import type { CsrObject } from '../pki/csr-object.js';

/** What the tests work with. */
export interface CsrTestSetup extends TestRegistry {
  /** Creates a request (a fresh key) as `user`; the created object. */
  createCsr(name: string, signerName: string, usages: readonly string[], request: TestRequestOptions, options?: { user?: UserInfo; expirationSeconds?: number }): Promise<CsrObject>;
  /** Adds an Approved or Denied condition through the approval subresource. */
  decide(name: string, type: 'Approved' | 'Denied'): Promise<CsrObject>;
  get(name: string): Promise<CsrObject | undefined>;
}

const group = 'certificates.svc.io';

/** Builds the setup. */
export async function csrTestSetup(): Promise<CsrTestSetup> {
  const t = await testRegistry(['default']);
  const get = async (name: string): Promise<CsrObject | undefined> => {
    const r = await t.call({ verb: 'get', group, resource: 'certificatesigningrequests', name });
    return r.code === 200 ? (r.body as CsrObject) : undefined;
  };
  return {
    ...t,
    get,
    async createCsr(name, signerName, usages, request, options = {}) {
      const { requestPem } = await testCertificateRequest(request);
      const r = await t.call({
        verb: 'create', group, resource: 'certificatesigningrequests', ...(options.user ? { user: options.user } : {}),
        body: {
          apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name },
          spec: { request: Buffer.from(requestPem).toString('base64'), signerName, usages, ...(options.expirationSeconds ? { expirationSeconds: options.expirationSeconds } : {}) },
        },
      });
      if (r.code !== 201) throw new Error(`creating ${name}: ${JSON.stringify(r.body)}`);
      return r.body as CsrObject;
    },
    async decide(name, type) {
      const current = (await get(name))!;
      const body: KubeObject = { ...current, status: { ...current.status, conditions: [...(current.status?.conditions ?? []), { type, status: 'True', reason: 'Test' }] } };
      const r = await t.call({ verb: 'update', group, resource: 'certificatesigningrequests', name, subresource: 'approval', body });
      if (r.code !== 200) throw new Error(`${type} ${name}: ${JSON.stringify(r.body)}`);
      return r.body as CsrObject;
    },
  };
}
