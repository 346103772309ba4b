/**
 * The request mixes of reliability runs, as relative weights. Crash runs are mostly writes of every kind (the point
 * is what survives a crash) with a few reads so compare-and-swap clients learn versions; history runs read as often
 * as they write, on fewer objects, so that reads race writes on the same object all the time.
 */
import type { VerbMix } from './history-client.js';

/** The mix of crash-consistency runs. */
export const crashMix: VerbMix = {
  get: 6,
  list: 1,
  create: 16,
  update: 14,
  'patch-merge': 10,
  'patch-json': 8,
  'patch-strategic': 8,
  apply: 14,
  delete: 10,
};

/** The mix of history runs. */
export const historyMix: VerbMix = {
  get: 24,
  list: 4,
  create: 12,
  update: 12,
  'patch-merge': 8,
  'patch-json': 5,
  'patch-strategic': 5,
  apply: 10,
  delete: 8,
};
