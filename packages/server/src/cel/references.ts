/**
 * Which variables a compiled expression reads. kube-apiserver tells transition rules (those that read `oldSelf`)
 * from the others this way: a transition rule runs only on an update that has an old value to compare.
 */
import type { Program } from './compile.js';

/** True when `program` reads the variable `name` anywhere, macro expansions included. */
export function referencesVariable(program: Program, name: string): boolean {
  return program.variables.has(name);
}
