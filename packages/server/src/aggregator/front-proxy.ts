/**
 * The aggregator's front-proxy client certificate (kube-apiserver's `--proxy-client-cert-file` and
 * `--proxy-client-key-file`): the certificate it presents to extension API servers, which trust its identity
 * headers only from a certificate of the request-header CA. Without the flags, a front-proxy CA of its own and a
 * client certificate `CN=front-proxy-client` are generated in the data directory on first start and reused.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../pki/ensure-pki.js';

/** The front-proxy identity. */
export interface FrontProxy {
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** The CA extension servers verify the client certificate with (published as `requestheader-client-ca-file`). */
  readonly caPem: string;
  /** The common names extension servers allow (`requestheader-allowed-names`). */
  readonly allowedNames: readonly string[];
}

/** File names of the generated front-proxy PKI in the data directory. */
export const frontProxyFiles = {
  caCert: 'front-proxy-ca.crt', caKey: 'front-proxy-ca.key', clientCert: 'front-proxy-client.crt', clientKey: 'front-proxy-client.key',
} as const;

/** kube's front-proxy client name. */
export const frontProxyClientName = 'front-proxy-client';

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** What the front proxy is made from: the flags, and the request-header settings to publish with them. */
export interface FrontProxyOptions {
  readonly dataDir: string;
  readonly proxyClientCertFile: string;
  readonly proxyClientKeyFile: string;
  /** `--requestheader-client-ca-file`, the CA to publish for a given proxy certificate. */
  readonly requestheaderClientCaFile: string;
  readonly requestheaderAllowedNames: readonly string[];
}

/** The given front-proxy identity, or the generated one (made on first start); an error for half-given flags. */
export async function ensureFrontProxy(options: FrontProxyOptions): Promise<Result<FrontProxy, string>> {
  if ((options.proxyClientCertFile === '') !== (options.proxyClientKeyFile === '')) {
    return fail('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  }
  if (options.proxyClientCertFile !== '') {
    const [cert, key, ca] = await Promise.all([
      readOptional(options.proxyClientCertFile), readOptional(options.proxyClientKeyFile),
      options.requestheaderClientCaFile === '' ? Promise.resolve('') : readOptional(options.requestheaderClientCaFile),
    ]);
    if (cert === undefined || key === undefined || ca === undefined) return fail('cannot read the proxy client certificate, its key or the request-header CA');
    return ok({ clientCertPem: cert, clientKeyPem: key, caPem: ca, allowedNames: options.requestheaderAllowedNames });
  }
  const dir = options.dataDir;
  const at = (f: string) => join(dir, f);
  let [caCert, caKey, cert, key] = await Promise.all([
    readOptional(at(frontProxyFiles.caCert)), readOptional(at(frontProxyFiles.caKey)),
    readOptional(at(frontProxyFiles.clientCert)), readOptional(at(frontProxyFiles.clientKey)),
  ]);
  // The issuing library is loaded only when something must be issued: later starts skip its load time.
  const issuing = () => import('../pki/certificates.js');
  if (caCert === undefined || caKey === undefined) {
    const ca = await (await issuing()).createCa('front-proxy-ca');
    caCert = ca.certPem;
    caKey = ca.keyPem;
    cert = undefined;
    await writeFileAtomic(at(frontProxyFiles.caCert), caCert, 0o644);
    await writeFileAtomic(at(frontProxyFiles.caKey), caKey, 0o600);
  }
  if (cert === undefined || key === undefined) {
    const leaf = await (await issuing()).issueLeaf({ certPem: caCert, keyPem: caKey }, { commonName: frontProxyClientName, usage: 'client' });
    cert = leaf.certPem;
    key = leaf.keyPem;
    await writeFileAtomic(at(frontProxyFiles.clientCert), cert, 0o644);
    await writeFileAtomic(at(frontProxyFiles.clientKey), key, 0o600);
  }
  return {
    ok: true,
    value: {
      clientCertPem: cert, clientKeyPem: key, caPem: caCert,
      allowedNames: options.requestheaderAllowedNames.length > 0 ? options.requestheaderAllowedNames : [frontProxyClientName],
    },
  };
}
