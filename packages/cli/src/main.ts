#!/usr/bin/env node
/**
 * The svcctl executable: wires `run` to the process; Ctrl-C ends a watch or a wait.
 */
import { run } from './cli.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

process.exitCode = await run(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readStdin,
  env: process.env,
  signal: stop.signal,
});
