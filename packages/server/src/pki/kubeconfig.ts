/**
 * The admin kubeconfig (as k3s writes k3s.yaml): one cluster with the CA inline, one user with the admin client
 * certificate inline, one context, set as current.
 */
import { stringify } from 'yaml';

/** What goes into a kubeconfig. */
export interface KubeconfigInput {
  readonly server: string;
  readonly caPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** Name of the cluster, user and context. */
  readonly name: string;
}

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/** The kubeconfig YAML text. */
export function kubeconfigYaml(input: KubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: input.name, cluster: { server: input.server, 'certificate-authority-data': b64(input.caPem) } }],
    users: [{ name: input.name, user: { 'client-certificate-data': b64(input.clientCertPem), 'client-key-data': b64(input.clientKeyPem) } }],
    contexts: [{ name: input.name, context: { cluster: input.name, user: input.name } }],
    'current-context': input.name,
    preferences: {},
  }, { lineWidth: 0 });
}

/**
 * The `kubeconfig` of the `cluster-info` ConfigMap (as kubeadm writes it): one unnamed cluster with this server's
 * URL and CA, no users, no contexts — what a joining client trusts once a bootstrap token signature verifies.
 */
export function clusterInfoKubeconfigYaml(server: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': b64(caPem), server }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  }, { lineWidth: 0 });
}
