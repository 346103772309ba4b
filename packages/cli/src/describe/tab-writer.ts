/**
 * Go's text/tabwriter as kubectl's describe configures it (minimum width 0, padding 2, spaces): cells end at tabs,
 * a column's width is its widest cell in a block of consecutive lines that have that column, a line with fewer
 * cells ends the blocks of the columns it lacks, and the text after a line's last tab is not aligned. `flush`
 * ends every block, as kubectl flushes before the Events table. Hand-written: no npm package aligns as Go's does.
 */
export interface TabWriter {
  write(text: string): void;
  /** Aligns what was written so far; later lines start new blocks. */
  flush(): void;
  /** Everything written, aligned. */
  text(): string;
}

/** A tab writer with kubectl's describe settings (`padding` 2). */
export function createTabWriter(padding = 2): TabWriter {
  let done = '';
  let pending = '';
  const width = (cell: string): number => [...cell].length;

  function format(lines: string[][]): string {
    let out = '';
    const widths: number[] = [];
    const writeLines = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const cells = lines[i] ?? [];
        cells.forEach((cell, j) => {
          out += cell;
          if (j < widths.length && j < cells.length - 1) out += ' '.repeat(Math.max(0, (widths[j] ?? 0) - width(cell)));
        });
        if (i < lines.length - 1) out += '\n';
      }
    };
    const block = (line0: number, line1: number): void => {
      const column = widths.length;
      let start = line0;
      for (let i = line0; i < line1; i++) {
        if (column >= (lines[i]?.length ?? 0) - 1) continue;
        writeLines(start, i);
        start = i;
        let w = 0;
        let j = i;
        for (; j < line1; j++) {
          const cells = lines[j] ?? [];
          if (column >= cells.length - 1) break;
          w = Math.max(w, width(cells[column] ?? '') + padding);
        }
        widths.push(w);
        block(start, j);
        widths.pop();
        start = j;
        i = j - 1;
      }
      writeLines(start, line1);
    };
    block(0, lines.length);
    return out;
  }

  const flush = (): void => {
    if (pending === '') return;
    const lines = pending.split('\n').map((l) => l.split('\t'));
    done += format(lines);
    pending = '';
  };
  return {
    write(text) {
      pending += text;
    },
    flush,
    text() {
      flush();
      return done;
    },
  };
}
