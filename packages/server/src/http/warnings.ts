/**
 * The warnings of one response, as kube-apiserver's warning recorder keeps them (k8s.io/apiserver
 * endpoints/filters/warning.go): duplicates dropped, and once the texts pass 4096 runes in all, every text cut to
 * 256 runes and no more added past the total. Each becomes a `Warning: 299 - "<text>"` header (RFC 7234 warn-text,
 * `"` and `\` escaped), and texts that are not valid UTF-8 are dropped, as kube's NewWarningHeader refuses them.
 *
 * Node refuses header values with control characters or characters above U+00FF (setting one throws), where Go
 * writes the bytes it is given: control characters become spaces (Go does so for CR and LF) and other text goes
 * out as its UTF-8 bytes, which is what a Go client reads back.
 */

/** kube's truncateAtTotalRunes. */
export const warningTotalRunes = 4 * 1024;
/** kube's truncateItemRunes. */
export const warningItemRunes = 256;

/** The warnings of a response. */
export interface WarningRecorder {
  /** Records a warning text (ignored when empty, a duplicate, not UTF-8, or past the total while truncating). */
  add(text: string): void;
  /** The `Warning` header values, in the order added. */
  headers(): string[];
}

/** True when a JS string holds no lone surrogate (its UTF-8 form exists). */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** The first `n` runes (code points) of `text`. */
function firstRunes(text: string, n: number): string {
  let i = 0;
  let runes = 0;
  while (i < text.length && runes < n) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    runes++;
  }
  return text.slice(0, i);
}

/** The number of runes (code points) in `text`. */
function runeCount(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

/** A header value Node will write: control characters as spaces, other text as its UTF-8 bytes (one per char). */
export function headerSafe(value: string): string {
  const clean = value.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  return /^[\u0000-\u007f]*$/.test(clean) ? clean : Buffer.from(clean, 'utf8').toString('latin1');
}

/** `299 - "<text>"`: kube's NewWarningHeader with agent `-`. */
export function warningHeader(text: string): string {
  return headerSafe(`299 - "${text.replace(/[\\"]/g, (c) => '\\' + c)}"`);
}

/** A new, empty recorder. */
export function warningRecorder(): WarningRecorder {
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  return {
    add(text) {
      if (text === '' || (truncating && written >= warningTotalRunes) || recorded.has(text)) return;
      recorded.add(text);
      ordered.push(text);
      if (!isWellFormed(text)) return;
      let item = text;
      let runes = runeCount(item);
      if (truncating && runes > warningItemRunes) {
        item = firstRunes(item, warningItemRunes);
        runes = warningItemRunes;
      }
      if (truncating || written + runes <= warningTotalRunes) {
        written += runes;
        out.push(warningHeader(item));
        return;
      }
      // Over the total: start again with every text recorded so far cut to the item limit, up to the total.
      truncating = true;
      written = 0;
      out = [];
      for (const w of ordered) {
        if (!isWellFormed(w)) continue;
        const cut = firstRunes(w, warningItemRunes);
        written += runeCount(cut);
        out.push(warningHeader(cut));
        if (written >= warningTotalRunes) break;
      }
    },
    headers: () => out,
  };
}
