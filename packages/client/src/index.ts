/**
 * The svc-apiserver client: kubeconfig loading, a REST client with typed verbs, watch streams and discovery.
 */
export * from './call-failure.js';
export * from './kubeconfig.js';
export * from './paths.js';
export * from './transport.js';
export * from './rest-client.js';
export * from './watch.js';
export * from './discovery.js';
export * from './exec-config.js';
export * from './exec-credential.js';
export * from './rest-mapper.js';
export * from './retry-policy.js';
export * from './codec.js';
