/**
 * Which variables a compiled expression reads. kube-apiserver tells transition rules (those that read `oldSelf`)
 * from the others this way: a transition rule runs only on an update that has an old value to compare. Evaluation
 * converts only the fields of a variable that its expressions select.
 */
import type { Program } from './compile.js';

/** True when `program` reads the variable `name` anywhere, macro expansions included. */
export function referencesVariable(program: Program, name: string): boolean {
  return program.variables.has(name);
}

/**
 * The fields each variable is read by across `programs` when all of them read it only through field selections
 * (Program.fieldsRead); a variable some program reads otherwise, or none reads, is not in the map.
 */
export function fieldsReadByAll(programs: readonly Program[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const whole = new Set<string>();
  for (const p of programs) {
    for (const name of p.variables) {
      const fields = p.fieldsRead.get(name);
      if (fields === undefined) whole.add(name);
      else out.set(name, new Set([...(out.get(name) ?? []), ...fields]));
    }
  }
  for (const name of whole) out.delete(name);
  return out;
}
