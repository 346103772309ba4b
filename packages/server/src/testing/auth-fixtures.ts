/**
 * Test servers and credentials for authentication tests: a CA with client and serving certificates, an OpenID
 * Connect issuer (discovery and keys over TLS on loopback, tokens signed with jose) and a TokenReview webhook over
 * TLS. Every server listens on 127.0.0.1 on an ephemeral port and is stopped by `close`.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { createCa, issueLeaf, type CertAndKey } from '../pki/certificates.js';

/** A CA and a serving certificate for 127.0.0.1 it issued. */
export interface TestTls {
  readonly ca: CertAndKey;
  readonly serving: CertAndKey;
  /** Issues a client certificate. */
  client(commonName: string, organizations?: readonly string[], validDays?: number): Promise<CertAndKey>;
}

/** A fresh CA with a serving certificate for loopback. */
export async function testTls(name = 'test-ca'): Promise<TestTls> {
  const ca = await createCa(name);
  const serving = await issueLeaf(ca, { commonName: '127.0.0.1', usage: 'server', sans: ['127.0.0.1', 'localhost'] });
  return {
    ca,
    serving,
    client: (commonName, organizations = [], validDays) =>
      issueLeaf(ca, { commonName, organizations, usage: 'client', ...(validDays !== undefined ? { validDays } : {}) }),
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A running OIDC issuer. */
export interface TestOidcIssuer {
  readonly issuer: string;
  readonly caPem: string;
  /** Signs an ID token with the current key; `claims` override the defaults (iss, aud, sub, iat, exp). */
  token(claims: Record<string, unknown>, options?: { expiresInSeconds?: number; kid?: string }): Promise<string>;
  /** Replaces the signing key (new kid); the old one leaves the key set. */
  rotate(): Promise<void>;
  /** How many times the key set was fetched. */
  readonly keyFetches: number;
  close(): Promise<void>;
}

/** Starts an OIDC issuer on loopback. */
export async function startOidcIssuer(tls: TestTls): Promise<TestOidcIssuer> {
  let key: { privateKey: CryptoKey; jwk: JWK } | undefined;
  let generation = 0;
  const newKey = async (): Promise<void> => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: `key-${++generation}`, alg: 'RS256', use: 'sig' };
    key = { privateKey: pair.privateKey, jwk };
  };
  await newKey();
  let keyFetches = 0;
  let issuer = '';
  const server = createServer({ cert: tls.serving.certPem, key: tls.serving.keyPem }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/keys') {
      keyFetches++;
      res.end(JSON.stringify({ keys: [key!.jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  const port = await listen(server);
  issuer = `https://127.0.0.1:${port}`;
  return {
    issuer,
    caPem: tls.ca.certPem,
    get keyFetches() {
      return keyFetches;
    },
    async token(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: 'svc-client', sub: 'alice', iat: now, exp: now + (options.expiresInSeconds ?? 600), ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key!.jwk.kid! })
        .sign(key!.privateKey);
    },
    rotate: newKey,
    close: () => close(server),
  };
}

/** A kubeconfig-format connection file for a webhook at `url` trusting `caPem`, with an optional bearer token. */
export function webhookKubeconfig(url: string, caPem: string, token?: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: webhook',
    '  cluster:',
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    'users:',
    '- name: apiserver',
    `  user: ${token ? `{token: ${token}}` : '{}'}`,
    'contexts:',
    '- name: webhook',
    '  context: {cluster: webhook, user: apiserver}',
    'current-context: webhook',
    '',
  ].join('\n');
}

/** What the test webhook answers for a token. */
export type WebhookAnswer = (token: string, audiences: readonly string[] | undefined) => Record<string, unknown>;

/** A running TokenReview webhook. */
export interface TestWebhook {
  readonly url: string;
  /** Every TokenReview received. */
  readonly reviews: { apiVersion: string; spec: { token: string; audiences?: string[] }; authorization?: string }[];
  /** Writes a kubeconfig-format connection file for it. */
  kubeconfig(token?: string): string;
  close(): Promise<void>;
}

/** Starts a TokenReview webhook on loopback answering with `answer(token)` as status. */
export async function startTokenWebhook(tls: TestTls, answer: WebhookAnswer): Promise<TestWebhook> {
  const reviews: TestWebhook['reviews'] = [];
  const server = createServer({ cert: tls.serving.certPem, key: tls.serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TestWebhook['reviews'][number];
      reviews.push({ ...review, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status: answer(review.spec.token, review.spec.audiences) }));
    });
  });
  const port = await listen(server);
  const url = `https://127.0.0.1:${port}/authenticate`;
  return {
    url,
    reviews,
    kubeconfig: (token) => webhookKubeconfig(url, tls.ca.certPem, token),
    close: () => close(server),
  };
}
