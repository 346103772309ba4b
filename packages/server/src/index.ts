/**
 * svc-apiserver as a library: `startServer` runs a real server in-process (tests start one in milliseconds).
 */
export { startServer, type StartServerOptions, type RunningServer } from './server.js';
export { defaultServerOptions, parseFlags, type ServerOptions, type StorageKind } from './config.js';
export type { HealthCheck } from './health/health-check.js';
