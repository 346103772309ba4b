/**
 * Word wrapping as kubectl's explain does it (go-wordwrap 1.0.0, which kubectl 1.27 vendors): breaks only at white
 * space, counts UTF-8 bytes, keeps a word longer than the limit whole on its own line, and keeps the text's own
 * line breaks. Hand-written: npm's wrappers (word-wrap, wrap-ansi) break and trim differently, and explain's output
 * must match kubectl's line for line.
 */

/** Go's unicode.IsSpace. */
const space = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Wraps `text` to lines of at most `limit` bytes where white space allows. */
export function wrapWords(text: string, limit: number): string {
  let out = '';
  let current = 0;
  let word = '';
  let spaces = '';
  const len = (s: string): number => Buffer.byteLength(s);
  for (const ch of text) {
    if (ch === '\n') {
      if (word === '') {
        if (current + len(spaces) <= limit) out += spaces;
      } else {
        out += spaces + word;
        word = '';
      }
      spaces = '';
      out += ch;
      current = 0;
    } else if (space.test(ch)) {
      if (spaces === '' || word !== '') {
        current += len(spaces) + len(word);
        out += spaces + word;
        spaces = '';
        word = '';
      }
      spaces += ch;
    } else {
      word += ch;
      if (current + len(spaces) + len(word) > limit && len(word) < limit) {
        out += '\n';
        current = 0;
        spaces = '';
      }
    }
  }
  if (word === '') {
    if (current + len(spaces) <= limit) out += spaces;
  } else {
    out += spaces + word;
  }
  return out;
}

/** kubectl's template `indent`: `amount` spaces before the text and after each of its line breaks. */
export function indentLines(text: string, amount: number): string {
  const pad = ' '.repeat(amount);
  return pad + text.replaceAll('\n', `\n${pad}`);
}
