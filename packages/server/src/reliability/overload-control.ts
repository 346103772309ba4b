/**
 * The control of the overload tests: a bare HTTPS server in its own process, with the server under test's serving
 * certificate, answering every request at once. Probed at the same moments as the server under test, it shows
 * how fast this machine answers a TLS client right then — what other processes (test files run beside the
 * overload test, the load itself) leave of it — so the server's figures are judged against the machine as it is
 * during the run, not as it was before. Forked with its certificate and key as JSON; reports its port.
 */
import { createServer } from 'node:https';

/** What the control is told. */
export interface ControlOptions {
  readonly cert: string;
  readonly key: string;
}

/** What the control reports once it listens. */
export interface ControlReady {
  readonly port: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ControlOptions;
const server = createServer({ cert: options.cert, key: options.key, keepAlive: true }, (req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
  res.end('ok');
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address !== null ? address.port : 0 } satisfies ControlReady);
});
process.on('message', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
