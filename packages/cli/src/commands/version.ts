/**
 * `svcctl version [--client] [-o json|yaml]`: the client's version and the server's `/version`, as kubectl prints them.
 */
import { stringify } from 'yaml';
import { error, reportStatus, type Session } from '../session.js';

/** The client version svcctl reports. */
export const cliVersion = 'v0.1.0';

/** Runs `version`. */
export async function cmdVersion(s: Session): Promise<number> {
  const clientVersion = { gitVersion: cliVersion, platform: `${process.platform}/${process.arch}` };
  const out = s.flags.output;
  if (out !== undefined && out !== 'json' && out !== 'yaml') return error(s.io, `--output must be 'yaml' or 'json'`);
  let serverVersion: Record<string, unknown> | undefined;
  let code = 0;
  if (s.flags.client !== true) {
    const v = await s.client.request<Record<string, unknown>>({ method: 'GET', path: '/version', headers: { accept: 'application/json' } });
    if (v.ok) serverVersion = v.value;
    else code = reportStatus(s.io, v.error);
  }
  if (out === 'json' || out === 'yaml') {
    const doc = { clientVersion, ...(serverVersion ? { serverVersion } : {}) };
    s.io.stdout(out === 'json' ? JSON.stringify(doc, null, 2) + '\n' : stringify(doc));
    return code;
  }
  s.io.stdout(`Client Version: ${cliVersion}\n`);
  if (serverVersion) s.io.stdout(`Server Version: ${String(serverVersion.gitVersion ?? 'unknown')}\n`);
  return code;
}
