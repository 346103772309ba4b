/** Every corpus file, one per group or group area. */
import type { CorpusFile } from './corpus.js';
import { clusterCases } from './cluster.js';
import { coreCases } from './core.js';
import { workloadCases } from './workloads.js';

/** The corpus files the parity test runs. */
export const corpusFiles: readonly CorpusFile[] = [coreCases, workloadCases, clusterCases];
