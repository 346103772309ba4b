/**
 * The CAs of the built-in signers from kube-controller-manager's flags: one pair (`--cluster-signing-cert-file`,
 * `--cluster-signing-key-file`) for every signer, or a pair per signer — never both kinds, and each pair set
 * together (kube's CSRSigningControllerOptions.Validate). A signer without files uses the one pair, or else this
 * server's generated CA, whose certificates its client certificate authentication already trusts.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { CertAndKey } from './certificates.js';
import { loadSigningCa, loadSigningCaFiles, type SigningCa } from './signing-ca.js';

/** A certificate and key file pair; '' for unset. */
export interface SigningFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** The signing flags. */
export interface ClusterSigningFlags {
  readonly all: SigningFiles;
  readonly apiClient: SigningFiles;
  readonly apiClientNode: SigningFiles;
  readonly nodeServing: SigningFiles;
  readonly legacyUnknown: SigningFiles;
}

/** The flag names of each pair, for messages. */
const flagNames: Readonly<Record<keyof ClusterSigningFlags, string>> = {
  all: 'cluster-signing',
  apiClient: 'cluster-signing-kube-apiserver-client',
  apiClientNode: 'cluster-signing-kubelet-client',
  nodeServing: 'cluster-signing-kubelet-serving',
  legacyUnknown: 'cluster-signing-legacy-unknown',
};

const isSet = (f: SigningFiles): boolean => f.certFile !== '' || f.keyFile !== '';

/** Why the flags do not go together, or undefined. */
export function clusterSigningFlagsProblem(flags: ClusterSigningFlags): string | undefined {
  const perSigner = (['apiClient', 'apiClientNode', 'nodeServing', 'legacyUnknown'] as const).filter((k) => isSet(flags[k]));
  if (isSet(flags.all) && perSigner.length > 0) {
    return 'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time';
  }
  for (const key of Object.keys(flagNames) as (keyof ClusterSigningFlags)[]) {
    const f = flags[key];
    if ((f.certFile === '') !== (f.keyFile === '')) return `--${flagNames[key]}-{cert,key}-file: cannot specify key without cert or cert without key`;
  }
  return undefined;
}

/** Loads each built-in signer's CA, by signer name. */
export async function loadClusterSigningCas(
  flags: ClusterSigningFlags, names: Names, generated: CertAndKey,
): Promise<Result<Map<string, SigningCa>, string>> {
  const problem = clusterSigningFlagsProblem(flags);
  if (problem !== undefined) return fail(problem);
  const fallback = isSet(flags.all) ? await loadSigningCaFiles(flags.all.certFile, flags.all.keyFile) : await loadSigningCa(generated.certPem, generated.keyPem);
  if (!fallback.ok) return fail(`--cluster-signing-cert-file: ${fallback.error}`);
  const out = new Map<string, SigningCa>();
  const signers = [
    ['apiClient', names.name('signerApiClient')],
    ['apiClientNode', names.name('signerApiClientNode')],
    ['nodeServing', names.name('signerNodeServing')],
    ['legacyUnknown', names.name('signerLegacyUnknown')],
  ] as const;
  for (const [key, signerName] of signers) {
    const files = flags[key];
    if (!isSet(files)) {
      out.set(signerName, fallback.value);
      continue;
    }
    const loaded = await loadSigningCaFiles(files.certFile, files.keyFile);
    if (!loaded.ok) return fail(`--${flagNames[key]}-cert-file: ${loaded.error}`);
    out.set(signerName, loaded.value);
  }
  return ok(out);
}
