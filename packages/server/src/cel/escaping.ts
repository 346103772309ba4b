/**
 * Property names as expressions see them (document 3 §Expression language; k8s.io/apiserver/pkg/cel Escape and
 * Unescape): only names of the form `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` are accessible, with `__` written
 * `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a name that is exactly a reserved word
 * written `__{keyword}__`.
 */

/** The words the expression language reserves; a property with exactly this name is reached as `__{word}__`. */
export const celReservedSymbols: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const expandMatcher = /__|[-./]|[^a-zA-Z0-9\-./_]/g;
const unexpandMatcher = /__[^_]+__/g;

/**
 * The identifier an expression uses for property `name`, or undefined when the property is not accessible (empty,
 * starting with a digit, or holding a character outside `[a-zA-Z0-9_.-/]`).
 */
export function escapePropertyName(name: string): string | undefined {
  if (name.length === 0 || (name[0]! >= '0' && name[0]! <= '9')) return undefined;
  if (celReservedSymbols.has(name)) return `__${name}__`;
  let ok = true;
  const escaped = name.replace(expandMatcher, (s) => {
    switch (s) {
      case '__': return '__underscores__';
      case '.': return '__dot__';
      case '-': return '__dash__';
      case '/': return '__slash__';
      default:
        ok = false;
        return '';
    }
  });
  return ok ? escaped : undefined;
}

/** The property name an escaped identifier stands for, or undefined when it holds an unknown escape sequence. */
export function unescapePropertyName(escaped: string): string | undefined {
  let ok = true;
  const name = escaped.replace(unexpandMatcher, (s) => {
    const contents = s.slice(2, -2);
    switch (contents) {
      case 'underscores': return '__';
      case 'dot': return '.';
      case 'dash': return '-';
      case 'slash': return '/';
      default:
        break;
    }
    // A keyword escape stands only for the whole name.
    if (celReservedSymbols.has(contents) && s.length === escaped.length) return contents;
    ok = false;
    return '';
  });
  return ok ? name : undefined;
}
