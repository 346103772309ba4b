/**
 * A client operation as the reliability harness records it: what was asked (verb, object, the value written, the
 * resourceVersion precondition), of which server life, when it was invoked and answered, and what the answer said,
 * already read as the register model's output. A LIST is one operation here and a read of every object for the
 * linearizability check.
 */
import type { HistoryOperation } from './linearizability-checker.js';
import type { RegisterInput, RegisterOutput } from './linearizability-register-model.js';

/** The requests the harness makes. */
export type ClientVerb =
  | 'get'
  | 'list'
  | 'create'
  | 'update'
  | 'patch-merge'
  | 'patch-json'
  | 'patch-strategic'
  | 'apply'
  | 'delete';

/** An object in a LIST answer. */
export interface ListedObject {
  readonly name: string;
  readonly rv: number;
  readonly value: string;
}

/** A LIST answer. */
export interface ListOutput {
  readonly kind: 'list';
  /** The list's resourceVersion: the revision it was read at. */
  readonly rv: number;
  readonly items: readonly ListedObject[];
}

/** One recorded operation. */
export interface RecordedOperation {
  readonly id: number;
  readonly client: string;
  /** The replica and the life of it that was asked. */
  readonly replica: string;
  readonly generation: number;
  readonly verb: ClientVerb;
  /** The object (every verb but list). */
  readonly name?: string;
  /** The model's view of the request (every verb but list). */
  readonly input?: RegisterInput;
  readonly output: RegisterOutput | ListOutput;
  /** Harness clock (ms) at invocation and at the answer (or at the failure, for an operation without answer). */
  readonly call: number;
  readonly return: number;
  /** The HTTP status, when an answer came. */
  readonly status?: number;
  /** The failure, for an operation without a definitive answer. */
  readonly detail?: string;
}

/** True when the operation's answer does not tell whether it took effect. */
export function isUnanswered(op: RecordedOperation): boolean {
  return op.output.kind === 'unknown';
}

/** True for operations that may change the object (writes and deletes, whatever their answer). */
export function isMutation(op: RecordedOperation): boolean {
  return op.input !== undefined && op.input.kind !== 'read';
}

/**
 * The history as the register model sees it: one partition per object; a LIST becomes a read of each object of
 * `names` (absent when not listed); reads without an answer are dropped, as they tell nothing.
 */
export function registerHistory(
  ops: readonly RecordedOperation[],
  names: readonly string[],
): HistoryOperation<RegisterInput, RegisterOutput>[] {
  const out: HistoryOperation<RegisterInput, RegisterOutput>[] = [];
  for (const op of ops) {
    const output = op.output;
    if (output.kind === 'list') {
      const byName = new Map(output.items.map((i) => [i.name, i]));
      for (const name of names) {
        const item = byName.get(name);
        out.push({
          partition: name,
          input: { kind: 'read' },
          output: item === undefined ? { kind: 'absent' } : { kind: 'found', rv: item.rv, value: item.value },
          call: op.call,
          return: op.return,
        });
      }
      continue;
    }
    if (op.input === undefined || op.name === undefined) continue;
    if (output.kind === 'unknown' && op.input.kind === 'read') continue;
    out.push({ partition: op.name, input: op.input, output, call: op.call, return: op.return });
  }
  return out;
}
