/**
 * svcctl: kubectl's everyday verbs over the client library, for svc-apiserver in either flavour (and any
 * Kubernetes API server). `run` takes argv and the output sinks and returns the exit code, so tests drive it
 * without a process.
 */
import { createClient, loadKubeconfig } from '@svc-apiserver/client';
import { parseLine } from './flags.js';
import { error, type CliIo, type Session } from './session.js';
import { cmdGet } from './commands/get.js';
import { cmdApply, cmdCreateOrReplace } from './commands/write.js';
import { cmdCreateGenerated } from './commands/create-generators.js';
import { cmdDelete } from './commands/delete.js';
import { cmdMetadata } from './commands/metadata.js';
import { cmdPatch } from './commands/patch.js';
import { cmdScale } from './commands/scale.js';
import { cmdWait } from './commands/wait.js';
import { cmdDescribe } from './commands/describe.js';
import { cmdExplain } from './commands/explain.js';
import { cmdEdit } from './commands/edit.js';
import { cmdApiResources, cmdApiVersions } from './commands/discovery.js';
import { cmdAuth } from './commands/auth.js';
import { cmdCertificate } from './commands/certificate.js';
import { cmdConfig } from './commands/config.js';
import { cliVersion, cmdVersion } from './commands/version.js';
import { cmdCompletion, commandNames } from './commands/completion.js';

export type { CliIo } from './session.js';
export { cliVersion } from './commands/version.js';

const usage = `svcctl controls an svc-apiserver (or any Kubernetes API server).

Usage: svcctl [--kubeconfig FILE] [--context NAME] [-n NAMESPACE] COMMAND [args] [flags]

Basic commands:
  create        -f FILE | namespace NAME | configmap NAME | secret generic NAME | token SERVICEACCOUNT
  get           TYPE[,TYPE...] [NAME...] [-o json|yaml|name|wide|jsonpath=...|custom-columns=...] [-l SEL] [--field-selector SEL] [-A] [-w]
  explain       TYPE[.FIELD...] [--recursive]
  edit          TYPE NAME
  delete        TYPE NAME... | -f FILE | -l SEL [--cascade=background|foreground|orphan] [--grace-period=N] [--force] [--wait]
Management:
  apply         -f FILE [--server-side [--force-conflicts]] [--field-manager NAME]
  replace       -f FILE
  patch         TYPE NAME -p PATCH [--type strategic|merge|json]
  label         TYPE NAME KEY=VALUE... KEY-... [--overwrite]
  annotate      TYPE NAME KEY=VALUE... KEY-... [--overwrite]
  scale         TYPE NAME --replicas=N
  wait          TYPE NAME --for=condition=C | --for=delete | --for=jsonpath='{...}'=V [--timeout=30s]
  describe      TYPE[,TYPE...] [NAME_PREFIX...] | TYPE/NAME... [-l SEL] [-A]
  certificate   approve|deny NAME...
Discovery and access:
  api-resources, api-versions, auth can-i VERB TYPE[/NAME] [--list], auth whoami
Settings:
  config        view|current-context|get-contexts|use-context|set-context
  version, completion bash|zsh
`;

/** Runs svcctl with `argv` (without the node and script paths); resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseLine(argv);
  if (!parsed.ok) return error(io, parsed.error);
  const { flags, positionals } = parsed.value;
  const [command, ...args] = positionals;
  if (flags.help || command === undefined || command === 'help') {
    io.stdout(usage);
    return command === undefined && !flags.help ? 1 : 0;
  }
  if (!(commandNames as readonly string[]).includes(command)) return error(io, `unknown command "${command}" for "svcctl"`);
  if (command === 'completion') return cmdCompletion(io, args);
  if (command === 'config') return cmdConfig(io, flags, args);
  const conn = loadKubeconfig({ ...(flags.kubeconfig ? { path: flags.kubeconfig } : {}), ...(flags.context ? { context: flags.context } : {}), env: io.env });
  if (!conn.ok) return error(io, conn.error);
  const client = createClient(conn.value, { userAgent: `svcctl/${cliVersion}`, onWarning: (w) => io.stderr(`Warning: ${w}\n`) });
  const s: Session = { io, client, flags, namespace: flags.namespace ?? conn.value.namespace };
  try {
    switch (command) {
      case 'get': return await cmdGet(s, args);
      case 'create': return (flags.filename ?? []).length > 0 ? await cmdCreateOrReplace(s, 'create') : await cmdCreateGenerated(s, args);
      case 'replace': return await cmdCreateOrReplace(s, 'replace');
      case 'apply': return await cmdApply(s);
      case 'delete': return await cmdDelete(s, args);
      case 'label': return await cmdMetadata(s, args, 'labels');
      case 'annotate': return await cmdMetadata(s, args, 'annotations');
      case 'patch': return await cmdPatch(s, args);
      case 'scale': return await cmdScale(s, args);
      case 'wait': return await cmdWait(s, args);
      case 'describe': return await cmdDescribe(s, args);
      case 'explain': return await cmdExplain(s, args);
      case 'edit': return await cmdEdit(s, args);
      case 'api-resources': return await cmdApiResources(s);
      case 'api-versions': return await cmdApiVersions(s);
      case 'auth': return await cmdAuth(s, args);
      case 'certificate': return await cmdCertificate(s, args);
      default: return await cmdVersion(s);
    }
  } finally {
    client.close();
  }
}
