/**
 * kube-controller-manager's `--controllers` flag: `*` enables every controller that is on by default, `name` enables
 * that controller, `-name` disables it; for each controller the first entry that names it decides, else `*` does
 * (IsControllerEnabled). A name the table does not know is refused, as kube's options validation refuses it.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

/** The part of a controller table entry the flag reads. */
export interface ControllerSwitch {
  /** Whether `*` enables it (kube's bootstrapsigner and tokencleaner are off by default). */
  readonly onByDefault: boolean;
}

/** The names of `table` that `flag` enables, in table order, or why `flag` is refused. */
export function enabledControllers<Name extends string>(
  table: Readonly<Record<Name, ControllerSwitch>>,
  flag: readonly string[],
): Result<Name[], string> {
  const known = Object.keys(table) as Name[];
  const unknown = flag.filter((entry) => entry !== '*' && !(known as string[]).includes(entry.replace(/^-/, '')));
  if (unknown.length > 0) {
    const which = unknown.map((entry) => JSON.stringify(entry.replace(/^-/, ''))).join(', ');
    return fail(`--controllers: ${which} ${unknown.length === 1 ? 'is' : 'are'} not in the list of known controllers (${known.join(', ')})`);
  }
  const enabled = (name: Name): boolean => {
    for (const entry of flag) {
      if (entry === name) return true;
      if (entry === `-${name}`) return false;
    }
    return flag.includes('*') && table[name].onByDefault;
  };
  return ok(known.filter(enabled));
}
