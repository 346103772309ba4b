/**
 * @peculiar/x509, loaded by the first certificate request parsed or certificate issued rather than at start: it is
 * the largest library of the server (with its ASN.1 schemas), and a start whose PKI exists reads certificates with
 * node's own X509Certificate. It needs the reflect-metadata polyfill before it loads, and WebCrypto as its provider.
 */
import { webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { lazyRequire } from '../lazy-module.js';

const reflectMetadata = lazyRequire<unknown>('reflect-metadata');

const library = lazyRequire<typeof X509>('@peculiar/x509', (loaded) => {
  loaded.cryptoProvider.set(webcrypto as unknown as Parameters<typeof loaded.cryptoProvider.set>[0]);
});

/** The library, loaded (after the polyfill it needs) by the first call. */
export function loadX509(): typeof X509 {
  reflectMetadata();
  return library();
}
