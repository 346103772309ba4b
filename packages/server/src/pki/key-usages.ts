/**
 * The key usages a CertificateSigningRequest may ask for (certificates/v1 KeyUsage) and what each becomes in an
 * issued certificate (kube's authority keyUsagesFromStrings): a bit of the key usage extension or an extended key
 * usage.
 */

/** Key usage bits (RFC 5280 §4.2.1.3, as @peculiar/x509's KeyUsageFlags numbers them). */
const keyUsageBits = {
  'signing': 1,
  'digital signature': 1,
  'content commitment': 2,
  'key encipherment': 4,
  'data encipherment': 8,
  'key agreement': 16,
  'cert sign': 32,
  'crl sign': 64,
  'encipher only': 128,
  'decipher only': 256,
} as const satisfies Record<string, number>;

/** Extended key usage OIDs. */
const extendedKeyUsageOids = {
  'any': '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  'timestamping': '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
} as const satisfies Record<string, string>;

/** Every known usage, sorted (the list kube's NotSupported errors print). */
export const knownKeyUsages: readonly string[] = [...Object.keys(keyUsageBits), ...Object.keys(extendedKeyUsageOids)].sort();

const known: ReadonlySet<string> = new Set(knownKeyUsages);

/** True for a usage certificates/v1 defines. */
export function isKnownKeyUsage(usage: string): boolean {
  return known.has(usage);
}

/** The key usage bits and extended key usage OIDs of `usages` (each OID once, in order of first mention). */
export function certificateUsages(usages: readonly string[]): { keyUsage: number; extendedKeyUsages: string[] } {
  let keyUsage = 0;
  const extended: string[] = [];
  for (const u of usages) {
    if (Object.hasOwn(keyUsageBits, u)) keyUsage |= keyUsageBits[u as keyof typeof keyUsageBits];
    if (Object.hasOwn(extendedKeyUsageOids, u)) {
      const oid = extendedKeyUsageOids[u as keyof typeof extendedKeyUsageOids];
      if (!extended.includes(oid)) extended.push(oid);
    }
  }
  return { keyUsage, extendedKeyUsages: extended };
}
