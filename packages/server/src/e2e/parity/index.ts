/** Every corpus file, one per group or group area. */
import type { CorpusFile } from './corpus.js';
import { clusterCases } from './cluster.js';
import { coreCases } from './core.js';
import { coreKindCases } from './core-kinds.js';
import { corePodCases } from './core-pods.js';
import { workloadCases } from './workloads.js';
import { appsBatchCases } from './apps-batch.js';
import { storageCases } from './storage.js';
import { decodingCases } from './decoding.js';
import { autoscalingCases } from './autoscaling.js';
import { networkingCases } from './networking.js';
import { discoverySchedulingCases } from './discovery-scheduling.js';
import { storageKindCases } from './storage-kinds.js';
import { eventCases } from './events.js';
import { flowcontrolCases } from './flowcontrol.js';
import { rbacCases } from './rbac.js';
import { apiextensionsCases } from './apiextensions.js';

/** The corpus files the parity test runs. */
export const corpusFiles: readonly CorpusFile[] = [coreCases, corePodCases, coreKindCases, workloadCases, appsBatchCases, clusterCases, storageCases, decodingCases, autoscalingCases, networkingCases, discoverySchedulingCases, storageKindCases, eventCases, flowcontrolCases, rbacCases, apiextensionsCases];
