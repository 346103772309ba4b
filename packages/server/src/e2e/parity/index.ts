/** Every corpus file, one per group. */
import type { CorpusFile } from './corpus.js';
import { coreCases } from './core.js';

/** The corpus files the parity test runs. */
export const corpusFiles: readonly CorpusFile[] = [coreCases];
