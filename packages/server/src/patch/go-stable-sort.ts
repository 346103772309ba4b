/**
 * Go's sort.SliceStable (insertion sort of blocks of 20, then SymMerge of the blocks), step for step. Strategic merge
 * patch orders list items with a comparison that is not an order (an item missing from the order list is "less"
 * than anything, and anything "less" than it), so its result depends on the exact sequence of comparisons and
 * swaps kube-apiserver's sort makes; this makes the same ones, in O(n log² n), where a plain insertion sort would
 * agree only up to 20 items and take quadratic time beyond. No library sorts as Go does, so it is written here.
 *
 * A long list is sorted in steps (limits/turn-budget.ts): between blocks and between the merges of a pass, never
 * inside one merge, so the comparisons and swaps are exactly those of one run.
 */
import { runSteps, type Steps } from '../limits/turn-budget.js';

/** How many items the sort moves through (in insertion blocks or merges) between two points where it may yield. */
const itemsPerStep = 4096;

/** Sorts `items` in place as Go's sort.SliceStable(items, less) does. */
export function goStableSort<T>(items: T[], less: (a: T, b: T) => boolean): void {
  runSteps(goStableSortSteps(items, less));
}

/** {@link goStableSort} in steps: the same comparisons and swaps, with points between blocks and merges to yield at. */
export function* goStableSortSteps<T>(items: T[], less: (a: T, b: T) => boolean): Steps<void> {
  const n = items.length;
  const lessAt = (i: number, j: number): boolean => less(items[i]!, items[j]!);
  const swap = (i: number, j: number): void => {
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  };
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) {
      for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
    }
  };
  const swapRange = (a: number, b: number, count: number): void => {
    for (let i = 0; i < count; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const total = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = total - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = total - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = total - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  /** Items moved through since the last point to yield at. */
  let moved = 0;
  const due = (count: number): boolean => {
    moved += count;
    if (moved < itemsPerStep) return false;
    moved = 0;
    return true;
  };

  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    if (due(blockSize)) yield;
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      if (due(2 * blockSize)) yield;
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    if (due(n - a)) yield;
    blockSize *= 2;
  }
}
