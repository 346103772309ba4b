/**
 * A wait for controller tests: polls a condition every few milliseconds and fails with what was awaited when it does
 * not hold in time.
 */

/** Resolves once `condition` holds; rejects after `ms` naming `what`. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
