/**
 * Kubernetes' regex library (document 3 §Expression language; k8s.io/apiserver/pkg/cel/library regex.go) — `find`
 * and `findAll` — together with the standard `matches`, all on RE2 (regex.ts).
 */
import type { RE2JS } from 're2js';
import { celError, type CelLibrary } from './library.js';
import { compileRegex, regexFind, regexFindAll, regexMatches } from './regex.js';

function compiled(pattern: string): RE2JS {
  const re = compileRegex(pattern);
  if (re instanceof Error) throw celError(re.message);
  return re;
}

/** The regex library. */
export const regexLibrary: CelLibrary = {
  name: 'regex',
  types: [],
  overloads: [
    { signature: 'string.matches(string): bool', impl: (s: string, p: string) => regexMatches(s, compiled(p)) },
    { signature: 'matches(string, string): bool', impl: (s: string, p: string) => regexMatches(s, compiled(p)) },
    { signature: 'string.find(string): string', impl: (s: string, p: string) => regexFind(s, compiled(p)) },
    { signature: 'string.findAll(string): list<string>', impl: (s: string, p: string) => regexFindAll(s, compiled(p), -1) },
    {
      signature: 'string.findAll(string, int): list<string>',
      impl: (s: string, p: string, n: bigint) => regexFindAll(s, compiled(p), Number(n)),
    },
  ],
};
