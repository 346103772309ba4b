/**
 * The error Go's `time.Parse` gives for a timestamp that metav1.Time (layout RFC3339) or metav1.MicroTime (layout
 * RFC3339Micro, exactly six fractional digits) cannot decode: kube-apiserver's decoder answers it word for word
 * (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`, `parsing time "…": month out of
 * range`, `…: extra text: "…"`).
 *
 * Written by hand: the message names the layout element where Go's parser stopped and the input left at that point,
 * which only a walk of the two layouts in Go's order reproduces; no date library reports failures that way.
 */

/** The layouts' elements in Go's order: literal prefixes and the standard chunks that follow them. */
type Chunk = { readonly literal: string } | { readonly std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone' };

const layoutTime = '2006-01-02T15:04:05Z07:00';
const layoutMicro = '2006-01-02T15:04:05.000000Z07:00';

const stdText: Readonly<Record<string, string>> = {
  year: '2006', month: '01', day: '02', hour: '15', minute: '04', second: '05', micro: '.000000', zone: 'Z07:00',
};

function chunksOf(micro: boolean): Chunk[] {
  const chunks: Chunk[] = [
    { std: 'year' }, { literal: '-' }, { std: 'month' }, { literal: '-' }, { std: 'day' }, { literal: 'T' },
    { std: 'hour' }, { literal: ':' }, { std: 'minute' }, { literal: ':' }, { std: 'second' },
  ];
  if (micro) chunks.push({ std: 'micro' });
  chunks.push({ std: 'zone' });
  return chunks;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (`fixed`: exactly two). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/** Go's time.quote: double quotes, `"` and `\` escaped, control and non-ASCII bytes as `\xNN`. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The `time.Parse` error of `value` against RFC3339 (`micro` false) or RFC3339Micro, or undefined when it parses.
 */
export function goTimeParseError(value: string, micro: boolean): string | undefined {
  const layout = micro ? layoutMicro : layoutTime;
  const cannot = (layoutElem: string, valueElem: string): string =>
    `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`;
  const withMessage = (message: string): string => `parsing time ${goQuote(value)}${message}`;
  const chunks = chunksOf(micro);
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    if ('literal' in chunk) {
      if (rest.length === 0 || rest[0] !== chunk.literal) return cannot(chunk.literal, rest);
      rest = rest.slice(1);
      continue;
    }
    const hold = rest;
    const std = stdText[chunk.std]!;
    let bad = false;
    let range: string | undefined;
    switch (chunk.std) {
      case 'year': {
        const digits = rest.slice(0, 4);
        if (rest.length < 4 || !isDigit(rest, 0) || !/^[0-9]{4}$/.test(digits)) bad = true;
        else {
          year = Number(digits);
          rest = rest.slice(4);
        }
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const got = getnum(rest, chunk.std !== 'hour');
        if (got === undefined) {
          bad = true;
          break;
        }
        rest = got.rest;
        if (chunk.std === 'month') {
          month = got.n;
          if (month <= 0 || month > 12) range = 'month';
        } else if (chunk.std === 'day') day = got.n;
        else if (chunk.std === 'hour' && got.n >= 24) range = 'hour';
        else if (chunk.std === 'minute' && got.n >= 60) range = 'minute';
        else if (chunk.std === 'second') {
          if (got.n >= 60) range = 'second';
          else if (!micro && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
            // A fractional second the layout does not name is read all the same.
            let n = 2;
            while (isDigit(rest, n)) n++;
            rest = rest.slice(n);
          }
        }
        break;
      }
      case 'micro':
        if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^[0-9]{6}$/.test(rest.slice(1, 7))) bad = true;
        else rest = rest.slice(7);
        break;
      case 'zone':
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') {
          bad = true;
          break;
        }
        {
          const hours = getnum(rest.slice(1, 3), true);
          const minutes = getnum(rest.slice(4, 6), true);
          if (hours === undefined || minutes === undefined || (rest[0] !== '+' && rest[0] !== '-')) bad = true;
          else if (hours.n > 24) range = 'time zone offset hour';
          else if (minutes.n > 60) range = 'time zone offset minute';
          rest = rest.slice(6);
        }
        break;
    }
    if (range !== undefined) return withMessage(`: ${range} out of range`);
    if (bad) return cannot(std, hold);
  }
  if (rest.length > 0) return withMessage(`: extra text: ${goQuote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) return withMessage(': day out of range');
  return undefined;
}
