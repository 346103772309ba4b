/**
 * kubectl's formatEndpoints: the `ip:port` addresses of an Endpoints object for the named ports (every address of
 * a headless subset without ports), the first three and `+ N more...`; `<none>` when it has no subsets.
 */
import type { Any } from './describe-context.js';

/** The addresses of `endpoints` serving the ports named in `portNames` (all ports when undefined). */
export function formatEndpoints(endpoints: Any | undefined, portNames: ReadonlySet<string> | undefined): string {
  const subsets: Any[] = endpoints?.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let count = 0;
  const add = (address: string): void => {
    if (shown.length < 3) shown.push(address);
    count++;
  };
  for (const subset of subsets) {
    const addresses: Any[] = subset.addresses ?? [];
    const ports: Any[] = subset.ports ?? [];
    if (ports.length === 0) {
      for (const a of addresses) add(String(a.ip ?? ''));
      continue;
    }
    for (const port of ports) {
      if (portNames !== undefined && !portNames.has(String(port.name ?? ''))) continue;
      // net.JoinHostPort brackets IPv6 addresses
      for (const a of addresses) add(`${String(a.ip ?? '').includes(':') ? `[${a.ip}]` : a.ip}:${port.port ?? 0}`);
    }
  }
  return count > shown.length ? `${shown.join(',')} + ${count - shown.length} more...` : shown.join(',');
}
