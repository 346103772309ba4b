/**
 * The in-process server for tests: a real svc-apiserver started in milliseconds, the envtest of TypeScript.
 */
export * from './test-server.js';
