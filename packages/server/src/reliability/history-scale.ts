/**
 * How big the reliability harness runs: `SVC_SOAK=1` (what `npm run soak` sets) runs every harness at full scale;
 * otherwise it runs at the reduced scale `npm test` can afford on every change.
 */

/** True when the harness runs at full scale. */
export const soak: boolean = process.env['SVC_SOAK'] === '1';

/** The value for this scale: `reduced` in `npm test`, `full` under `npm run soak`. */
export function scaled<T>(reduced: T, full: T): T {
  return soak ? full : reduced;
}
