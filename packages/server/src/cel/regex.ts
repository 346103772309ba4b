/**
 * Regular expressions on RE2's linear-time engine (re2js), as cel-go runs them: `matches` finds the pattern anywhere
 * in the string, `find`/`findAll` return matches as Go's regexp does (an empty match right after a previous match is
 * skipped). JavaScript's backtracking RegExp is never used for expression patterns, so a pattern like `^(a+)+$`
 * takes linear time on any input (document 3 §Expression language).
 */
import { RE2JS } from 're2js';

const cache = new Map<string, RE2JS | Error>();
const cacheLimit = 1000;

/** The compiled pattern, or the syntax error in RE2's words; compiled patterns are kept for reuse. */
export function compileRegex(pattern: string): RE2JS | Error {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    re = new Error((e as Error).message);
  }
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
}

/** True when `pattern` matches somewhere in `s`. */
export function regexMatches(s: string, re: RE2JS): boolean {
  return re.test(s);
}

/** The first match of `re` in `s`, or the empty string. */
export function regexFind(s: string, re: RE2JS): string {
  const m = re.matcher(s);
  return m.find() ? (m.group() ?? '') : '';
}

/** Up to `limit` successive matches of `re` in `s` (all when `limit` is negative), as Go's FindAllString. */
export function regexFindAll(s: string, re: RE2JS, limit: number): string[] {
  const out: string[] = [];
  if (limit === 0) return out;
  const m = re.matcher(s);
  let prevEnd = -1;
  while (m.find()) {
    const start = m.start();
    const end = m.end();
    if (!(start === end && start === prevEnd)) {
      out.push(m.group() ?? '');
      if (limit > 0 && out.length >= limit) break;
    }
    prevEnd = end;
  }
  return out;
}
