/**
 * Sorting in steps. A field set of a hundred thousand keys is sorted to write `managedFields`, and one native sort
 * of that many strings holds the event loop for tens of milliseconds on a busy machine; sorted here in runs the
 * native sort does in one short step each, then merged a slice at a time, it gives the loop back in between
 * (limits/turn-budget.ts). No library sorts in steps a caller can interleave with Node's loop, so it is written
 * here.
 */
import type { Steps } from './turn-budget.js';

/** Lists this long or shorter are sorted by one native sort, as before. */
export const sortRun = 4096;

/** How many elements a merge moves between two points where it may yield. */
const mergedPerStep = 8192;

/** Code-unit order: what Array.prototype.sort uses for strings without a comparator. */
function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorts `items` in place, stably, in the order of `compare` (default: code-unit order, as `items.sort()`): the same
 * order Array.prototype.sort gives, since both are stable. Short lists are sorted at once, without yielding.
 */
export function* sortSteps(items: string[], compare: (a: string, b: string) => number = codeUnitOrder): Steps<string[]> {
  if (items.length <= sortRun) return items.sort(compare);
  for (let start = 0; start < items.length; start += sortRun) {
    const run = items.slice(start, start + sortRun).sort(compare);
    for (let i = 0; i < run.length; i++) items[start + i] = run[i]!;
    yield;
  }
  let from = items;
  let to: string[] = new Array<string>(items.length);
  let moved = 0;
  for (let width = sortRun; width < items.length; width *= 2) {
    for (let left = 0; left < items.length; left += 2 * width) {
      const mid = Math.min(left + width, items.length);
      const end = Math.min(left + 2 * width, items.length);
      let i = left;
      let j = mid;
      for (let k = left; k < end; k++) {
        // Ties take the left run's element first: the merge is stable.
        if (i < mid && (j >= end || compare(from[j]!, from[i]!) >= 0)) to[k] = from[i++]!;
        else to[k] = from[j++]!;
        if (++moved % mergedPerStep === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) for (let k = 0; k < items.length; k++) items[k] = from[k]!;
  return items;
}
