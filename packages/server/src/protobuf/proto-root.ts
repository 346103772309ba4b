/**
 * The upstream Kubernetes 1.27 `generated.proto` files (k8s.io/api, apimachinery, apiextensions-apiserver,
 * kube-aggregator), loaded with protobufjs into one root once per process: the message types as upstream declares
 * them, which tests read the generated codec's bytes back with (the server encodes with the code generated from the
 * same files, generated-messages.ts). Field names stay as the .proto spells them (`keepCase`).
 */
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Protobuf from 'protobufjs';

/** Folder holding `k8s.io/...` (the proto include root). Relative to this module, so it works from src/ and dist/. */
const protoRootDir = fileURLToPath(new URL('../../upstream/k8s-1.27/proto/', import.meta.url));

/** The protobufjs module. Required on first use (synchronously, so encoders stay synchronous) rather than at start. */
export type ProtobufModule = typeof Protobuf;

let protobufModule: ProtobufModule | undefined;
let root: Protobuf.Root | undefined;

/** protobufjs itself, loaded on first use. */
export function protobufjs(): ProtobufModule {
  protobufModule ??= createRequire(import.meta.url)('protobufjs') as ProtobufModule;
  return protobufModule;
}

/** Paths (relative to the include root) of every generated.proto under k8s.io/. */
function generatedProtoFiles(dir: string, rel: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) generatedProtoFiles(join(dir, entry.name), `${rel}/${entry.name}`, out);
    else if (entry.name === 'generated.proto') out.push(`${rel}/${entry.name}`);
  }
  return out;
}

/** The root with every Kubernetes message type resolved (`k8s.io.api.core.v1.Pod`, ...). */
export function kubeProtoRoot(): Protobuf.Root {
  if (root) return root;
  const pb = protobufjs();
  const r = new pb.Root();
  // Imports name files by their path under the include root (`k8s.io/apimachinery/...`).
  r.resolvePath = (_origin: string, target: string): string => join(protoRootDir, target);
  r.loadSync(generatedProtoFiles(join(protoRootDir, 'k8s.io'), 'k8s.io', []), { keepCase: true });
  r.resolveAll();
  root = r;
  return r;
}
