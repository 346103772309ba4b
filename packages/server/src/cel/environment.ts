/**
 * The expression environment of kube-apiserver 1.27 on the cel-js engine: homogeneous aggregate literals, no
 * optional types, the standard functions, the libraries of libraries.ts, and the variables a use declares (`self` and
 * `oldSelf` of a CRD rule; `object`, `oldObject`, `request`, `params`, `authorizer` of a policy), each with its
 * declared type. Environments are kept per set of declarations, so the same schema never builds two.
 *
 * Where cel-js ships a function of the same name with other semantics (`matches` on JavaScript regexes, `trim` and
 * friends counting UTF-16 units), the library's version is registered under an internal name and compile.ts points
 * calls at it; those names are never visible to expressions.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { CelLibrary } from './library.js';
import { kubernetesLibraries } from './libraries.js';
import { celTypeName, objectTypesOf, type DeclType } from './schema-types.js';
import { celEquals, objectClass } from './values.js';

/** Member functions whose cel-js built-ins the libraries replace. */
export const replacedMemberFunctions: ReadonlySet<string> = new Set([
  'matches', 'lowerAscii', 'upperAscii', 'trim', 'indexOf', 'lastIndexOf', 'substring', 'split', 'join',
]);

/** The prefix of the internal names of replaced member functions. */
export const internalPrefix = 'k8s__';

/** One declared variable. */
export interface VariableDecl {
  readonly name: string;
  readonly type: DeclType;
}

/** An environment: the engine's environment and the declarations it was built from. */
export interface CelEnvironment {
  readonly engine: Environment;
  readonly variables: ReadonlyMap<string, DeclType>;
  /** Compiled programs of this environment by expression (compile.ts). */
  readonly programs: Map<string, unknown>;
}

// Parser limits: deeper or larger expressions are refused at compile time instead of exhausting the stack.
const limits = { maxAstNodes: 10_000, maxDepth: 100, maxListElements: 10_000, maxMapEntries: 10_000, maxCallArguments: 32 };

function registerLibrary(env: Environment, lib: CelLibrary): void {
  for (const t of lib.types) env.registerType(t.name, { ctor: t.ctor as never, fields: t.fields });
  for (const o of lib.overloads) {
    const m = /^(?:([^()]+?)\.)?(\w+)\(/.exec(o.signature);
    const name = m?.[2] ?? '';
    const signature = m?.[1] !== undefined && replacedMemberFunctions.has(name)
      ? o.signature.replace(`.${name}(`, `.${internalPrefix}${name}(`)
      : o.signature;
    env.registerFunction(signature, o.impl);
  }
}

let base: Environment | undefined;

function baseEnvironment(): Environment {
  if (base !== undefined) return base;
  const env = new Environment({ homogeneousAggregateLiterals: true, enableOptionalTypes: false, unlistedVariablesAreDyn: false, limits });
  for (const lib of kubernetesLibraries) registerLibrary(env, lib);
  base = env;
  return env;
}

// Environments per variable names, most recent last; bounded so that replaced schemas do not pile up.
const environments = new Map<string, CelEnvironment[]>();
const environmentsPerNames = 256;

function declare(variables: readonly VariableDecl[]): CelEnvironment {
  const env = baseEnvironment().clone();
  const declared = new Set<DeclType>();
  for (const v of variables) {
    for (const t of objectTypesOf(v.type)) {
      if (declared.has(t)) continue;
      declared.add(t);
      const fields: Record<string, string> = {};
      for (const f of t.fields.values()) fields[f.name] = celTypeName(f.type);
      env.registerType(t.typeName, { ctor: objectClass(t) as never, fields });
      // Objects of one type compare field by field (runtime-cost.ts evaluates every == with values.ts' celEquals).
      env.registerOperator(`${t.typeName} == ${t.typeName}`, (a: unknown, b: unknown) => celEquals(a, b));
    }
    env.registerVariable(v.name, celTypeName(v.type));
  }
  return { engine: env, variables: new Map(variables.map((v) => [v.name, v.type])), programs: new Map() };
}

/**
 * The environment declaring `variables`. The same declarations (same names, same type objects) give the same
 * environment, so programs compiled in it are reused.
 */
export function celEnvironment(variables: readonly VariableDecl[]): CelEnvironment {
  const names = variables.map((v) => v.name).join(',');
  let list = environments.get(names);
  if (list === undefined) environments.set(names, (list = []));
  const found = list.find((e) => variables.every((v) => e.variables.get(v.name) === v.type));
  if (found !== undefined) return found;
  const made = declare(variables);
  list.push(made);
  if (list.length > environmentsPerNames) list.shift();
  return made;
}
