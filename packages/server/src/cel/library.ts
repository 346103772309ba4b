/**
 * The shape of an expression library: the function overloads it adds (in cel-js signature syntax, e.g.
 * `string.charAt(int): string`) and the object types its values have. Kubernetes' libraries and the community
 * extensions kube-apiserver 1.27 enables are values of this shape (libraries.ts lists them).
 */
import { EvaluationError } from '@marcbachmann/cel-js';

/** One overload: its signature and what it computes. Implementations throw {@link celError} for runtime errors. */
export interface CelOverload {
  readonly signature: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine passes values of the signature's types
  readonly impl: (...args: any[]) => unknown;
}

/** An object type a library's values have, with the fields expressions may select (none for opaque values). */
export interface CelLibraryType {
  readonly name: string;
  readonly ctor: abstract new (...args: never[]) => unknown;
  readonly fields: Readonly<Record<string, string>>;
}

/** A library. */
export interface CelLibrary {
  readonly name: string;
  readonly types: readonly CelLibraryType[];
  readonly overloads: readonly CelOverload[];
}

/** A runtime error of a library function, as the engine reports errors. */
export function celError(message: string): EvaluationError {
  return new EvaluationError(message);
}
