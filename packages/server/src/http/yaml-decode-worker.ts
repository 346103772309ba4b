/**
 * The YAML decoding thread: decodes the bodies {@link decodeYamlBody} hands it, one at a time, and answers each
 * with its result. It exists so that a large YAML body (the parser reads about a megabyte a second) does not hold
 * the event loop that serves every other request.
 */
import { parentPort } from 'node:worker_threads';
import { decodeYaml } from './decode-yaml.js';

/** A body to decode. */
export interface YamlDecodeRequest {
  readonly id: number;
  readonly body: Uint8Array;
  readonly exactIntegers: boolean;
}

parentPort?.on('message', (request: YamlDecodeRequest) => {
  const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  parentPort!.postMessage({ id: request.id, result: decodeYaml(body, request.exactIntegers) });
});
