/**
 * `--advertise-address` when it is not given, as kube-apiserver picks it: the bind address, or, for a wildcard bind
 * address, the host's first IPv4 address that is not loopback (kube's ChooseHostInterface), loopback when it has
 * none. The `kubernetes` Service is IPv4 (the service range is), so the address must be IPv4 too.
 */
import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** The address this replica advertises, or why the given one cannot be used. */
export function advertiseAddress(given: string, bindAddress: string): Result<string, string> {
  if (given !== '') {
    return isIPv4(given) ? ok(given) : fail(`--advertise-address: ${JSON.stringify(given)} is not an IPv4 address (the service IP range is IPv4)`);
  }
  if (bindAddress !== '' && bindAddress !== '0.0.0.0' && bindAddress !== '::') {
    return isIPv4(bindAddress) ? ok(bindAddress) : fail(`--bind-address ${bindAddress} is not IPv4: give an IPv4 --advertise-address`);
  }
  for (const list of Object.values(networkInterfaces())) {
    const found = (list ?? []).find((a) => a.family === 'IPv4' && !a.internal);
    if (found !== undefined) return ok(found.address);
  }
  return ok('127.0.0.1');
}
