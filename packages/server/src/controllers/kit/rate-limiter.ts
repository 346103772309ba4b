/** The work queue's rate limiters live beside the queue, in api, shared with the client library. */
export { bucketRateLimiter, controllerRateLimiter, itemExponentialFailureRateLimiter, maxOfRateLimiter, type RateLimiter, type Backoff, defaultBackoff } from '@svc-apiserver/api';
