import { runBackendSuite } from '../backend-suite.js';
import { openMemoryBackend } from './memory-backend.js';

runBackendSuite('memory', async () => ({ backend: openMemoryBackend() }));
