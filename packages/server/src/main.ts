#!/usr/bin/env node
/**
 * The svc-apiserver command: parses flags (unknown flag → exit 2), starts the server, prints where it serves and
 * where the admin kubeconfig is, and shuts down gracefully on SIGTERM/SIGINT (a second signal exits at once).
 */
import { parseFlags } from './config.js';
import { startServer } from './server.js';
import { createLogger, logFunction } from './logging/logger.js';

async function main(): Promise<void> {
  const parsed = parseFlags(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(parsed.text);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`svc-apiserver: ${parsed.message}\nRun 'svc-apiserver --help' for usage.\n`);
    process.exitCode = 2;
    return;
  }
  const logger = createLogger({ format: parsed.options.loggingFormat, verbosity: parsed.options.verbosity });
  const log = logFunction(logger);
  // kube's klog warnings of flag parsing (a GA or deprecated feature gate set).
  for (const w of parsed.warnings) log(w);
  let server;
  try {
    server = await startServer({ ...parsed.options, logger });
  } catch (e) {
    log('failed to start', e);
    process.exit(1);
  }
  process.stdout.write(`svc-apiserver: serving on ${server.url}\n`);
  process.stdout.write(`svc-apiserver: admin kubeconfig written to ${server.kubeconfigPath}\n`);
  // From process start to /readyz passing: module loading and post-start hooks are part of what a user waits for.
  void server.ready().then(
    () => process.stdout.write(`svc-apiserver: ready in ${Math.round(performance.now())}ms\n`),
    () => {},
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      log(`received ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`received ${signal}, shutting down`);
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        log('shutdown failed', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
