/** The controllers' work queue is the one the client library's controllers use too (one implementation, in api). */
export { createWorkQueue, type WorkQueue, type WorkQueueOptions } from '@svc-apiserver/api';
