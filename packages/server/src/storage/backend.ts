/**
 * The storage Backend: a narrow, revisioned key-value interface in the shape of kine's.
 *
 * Every write gets the next global revision; an object's `metadata.resourceVersion` is the revision of its last
 * write (its mod revision) and a list's is the revision it was read at. Implementations: memory (tests), sqlite
 * (embedded default), etcd. All of them pass the conformance suite in `backend-suite.ts`.
 *
 * Keys look like `/registry/<group>/<resource>/<namespace>/<name>`. Values are opaque strings (JSON documents).
 * Failures a caller acts on are values ({@link BackendError}); a method rejects only when the store itself fails
 * (I/O error, lost connection), with an Error whose `code` is `Unavailable`.
 */
import type { Result } from '@svc-apiserver/api';

/** A stored key at one revision. */
export interface KeyValue {
  readonly key: string;
  readonly value: string;
  /** Revision at which the key was created (last created, if it was deleted and created again). */
  readonly createRevision: number;
  /** Revision of the key's last write. */
  readonly modRevision: number;
}

/** Errors a Backend returns as values. */
export type BackendError =
  /** create: the key exists. */
  | { readonly code: 'KeyExists'; readonly current: KeyValue }
  /** update/delete: the key does not exist. */
  | { readonly code: 'NotFound' }
  /** update/delete: the key's mod revision is not the expected one. */
  | { readonly code: 'Conflict'; readonly current: KeyValue }
  /** read at or watch from a revision older than the compacted revision. */
  | { readonly code: 'Compacted'; readonly compactRevision: number }
  /** read at a revision newer than the store's. */
  | { readonly code: 'FutureRevision'; readonly currentRevision: number };

/** A result: a value or a {@link BackendError}. */
export type BackendResult<T, E extends BackendError['code'] = BackendError['code']> = Result<T, Extract<BackendError, { code: E }>>;

/** Options of a read. */
export interface ReadOptions {
  /** Read the state as of this revision; 0 or absent means the current revision. */
  readonly revision?: number;
}

/** Options of a list. */
export interface ListOptions extends ReadOptions {
  /** At most this many keys; 0 or absent means no limit. */
  readonly limit?: number;
  /** Start at this key (inclusive) instead of the prefix's first key. */
  readonly startKey?: string;
}

/** A list's answer. */
export interface ListResult {
  /** The revision the list was read at (the current revision when none was asked for). */
  readonly revision: number;
  /** Keys in ascending byte order. */
  readonly kvs: readonly KeyValue[];
  /** True when keys after the last one returned exist under the prefix at that revision. */
  readonly more: boolean;
}

/** A change delivered to a watcher. */
export interface BackendEvent {
  readonly type: 'put' | 'delete';
  /** For a put: the new value. For a delete: the deleted value, with `modRevision` = the delete's revision. */
  readonly kv: KeyValue;
  /** The previous value, when there was one (always for delete and for a put that updated a key). */
  readonly prevKv?: KeyValue;
}

/** A running watch. */
export interface BackendWatch {
  /** Stops delivery; no listener is called after it returns. */
  cancel(): void;
  /**
   * Asks the store to report, through the listener's `onProgress`, a revision the watch has delivered every event
   * up to (etcd's RequestProgress). Optional: stores whose every write is watched need no such report. Does nothing
   * when the store's {@link Backend.reportsProgress} is false.
   */
  requestProgress?(): void;
}

/** What a watcher is told. */
export interface WatchListener {
  /** Events in revision order, never repeated, no gaps: one call per committed batch. */
  onEvents(events: readonly BackendEvent[]): void;
  /**
   * Every change under the prefix up to `revision` has been delivered (etcd's progress notification): writes
   * outside the prefix advance the store's revision without an event, and this tells the watcher it is current.
   */
  onProgress?(revision: number): void;
  /** The watch ended: `Compacted` when it asked for history no longer kept, `Unavailable` when the store was lost. */
  onError(error: { code: 'Compacted'; compactRevision: number } | { code: 'Unavailable'; message: string }): void;
}

/** The storage interface. */
export interface Backend {
  /** A short name for logs and health checks: `memory`, `sqlite`, `etcd`. */
  readonly name: string;
  /** The newest committed revision (0 for an empty store). */
  currentRevision(): Promise<number>;
  /**
   * The same, when the store knows it without a round trip (it runs in this process); undefined when it cannot say
   * now (closed). Absent for stores that must be asked (etcd): a consistent read then asks `currentRevision`.
   */
  revisionNow?(): number | undefined;
  /** The oldest revision still readable; reads and watches before it fail with `Compacted`. */
  compactRevision(): Promise<number>;
  /** One key, optionally at a revision. `kv` is absent when the key does not exist (at that revision). */
  get(key: string, options?: ReadOptions): Promise<BackendResult<{ revision: number; kv?: KeyValue }, 'Compacted' | 'FutureRevision'>>;
  /** Keys under a prefix, at one revision (a snapshot), with limit and start key. */
  list(prefix: string, options?: ListOptions): Promise<BackendResult<ListResult, 'Compacted' | 'FutureRevision'>>;
  /** Number of keys under a prefix at the current revision. */
  count(prefix: string): Promise<{ revision: number; count: number }>;
  /** Creates a key that does not exist. */
  create(key: string, value: string): Promise<BackendResult<KeyValue, 'KeyExists'>>;
  /** Replaces a key's value if its mod revision is `expectedModRevision` (compare-and-swap). */
  update(key: string, value: string, expectedModRevision: number): Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>>;
  /**
   * Deletes a key if its mod revision is `expectedModRevision` (or unconditionally when absent).
   * Returns the deleted value with `modRevision` = the delete's revision.
   */
  delete(key: string, expectedModRevision?: number): Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>>;
  /**
   * Watches a prefix for changes after `afterRevision` (exclusive): the first event delivered has a revision
   * greater than it. Events come in revision order, each once, with no gaps.
   */
  watch(prefix: string, afterRevision: number, listener: WatchListener): BackendWatch;
  /**
   * False when the store's watches cannot report their progress (an etcd that does not order progress notifications
   * with events): a watcher then cannot learn that it is current beyond its last event, and a read that must be
   * current reads the store, as kube-apiserver does on such an etcd. Absent for stores whose every write is watched.
   */
  reportsProgress?(): boolean;
  /** Forgets history at revisions below `revision` (never the current value of a live key). */
  compact(revision: number): Promise<void>;
  /** Releases the store. Pending writes are committed first. */
  close(): Promise<void>;
}
