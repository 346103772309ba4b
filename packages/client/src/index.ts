/**
 * The svc-apiserver client: kubeconfig loading with exec credential plugins, a REST client with every verb, watch
 * streams, discovery and a RESTMapper, shared informers, a work queue and leader election.
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
export * from './indexed-store.js';
export * from './informer.js';
export * from './leader-election.js';
export { createWorkQueue, controllerRateLimiter, itemExponentialFailureRateLimiter, bucketRateLimiter, maxOfRateLimiter, type WorkQueue, type WorkQueueOptions, type RateLimiter } from '@svc-apiserver/api';
export * from './server-flavour.js';
export * from './typed-resource.js';
export * from './generated/index.js';
