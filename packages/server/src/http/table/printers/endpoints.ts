/** Endpoints: Name, Endpoints (up to three `ip:port`, then `+ N more...`), Age (printEndpoints). */
import { isIPv6 } from 'node:net';
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, num, since, str } from '../format.js';

const max = 3;

/** formatEndpoints with no port filter. */
export function formatEndpoints(endpoints: Record<string, unknown>): string {
  const subsets = list(endpoints, 'subsets');
  if (subsets.length === 0) return '<none>';
  const out: string[] = [];
  let count = 0;
  let more = false;
  const add = (text: string): void => {
    if (out.length === max) more = true;
    if (!more) out.push(text);
    count++;
  };
  for (const ss of subsets) {
    const addresses = list(ss, 'addresses');
    const ports = list(ss, 'ports');
    if (ports.length === 0) {
      for (const a of addresses) add(str(a, 'ip'));
    } else {
      for (const p of ports) {
        for (const a of addresses) {
          const ip = str(a, 'ip');
          add(`${isIPv6(ip) ? `[${ip}]` : ip}:${num(p, 'port')}`);
        }
      }
    }
  }
  const text = out.join(',');
  return more ? `${text} + ${count - max} more...` : text;
}

/** The endpoints printer. */
export const endpointsPrinter: TablePrinter = {
  columns: [nameColumn, docColumn('Endpoints', 'io.k8s.api.core.v1.Endpoints', 'subsets'), ageColumn],
  cells: (ep, ctx) => [str(ep, 'metadata', 'name'), formatEndpoints(ep), since(get(ep, 'metadata', 'creationTimestamp'), ctx.now)],
};
