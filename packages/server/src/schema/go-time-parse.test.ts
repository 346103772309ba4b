import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goTimeParseError } from './go-time-parse.js';

const rfc3339 = '"2006-01-02T15:04:05Z07:00"';

describe('goTimeParseError', () => {
  it('accepts what time.Parse accepts for RFC3339, fractional seconds and offsets included', () => {
    for (const v of ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.5Z', '2024-01-02T03:04:05+01:30', '2024-02-29T00:00:00Z', '2024-01-02T3:04:05Z']) {
      assert.equal(goTimeParseError(v, false), undefined, v);
    }
  });

  it('names the layout element and the input left where Go stops', () => {
    assert.equal(goTimeParseError('2024-01-02', false), `parsing time "2024-01-02" as ${rfc3339}: cannot parse "" as "T"`);
    assert.equal(goTimeParseError('2024/01/02', false), `parsing time "2024/01/02" as ${rfc3339}: cannot parse "/01/02" as "-"`);
    assert.equal(goTimeParseError('2024-1-02T00:00:00Z', false), `parsing time "2024-1-02T00:00:00Z" as ${rfc3339}: cannot parse "1-02T00:00:00Z" as "01"`);
    assert.equal(goTimeParseError('2024-01-02T03:04:05', false), `parsing time "2024-01-02T03:04:05" as ${rfc3339}: cannot parse "" as "Z07:00"`);
    assert.equal(goTimeParseError('2024-01-02T03:04:05+0100', false), `parsing time "2024-01-02T03:04:05+0100" as ${rfc3339}: cannot parse "+0100" as "Z07:00"`);
  });

  it('reports range errors and extra text with the value alone', () => {
    assert.equal(goTimeParseError('2024-13-02T00:00:00Z', false), 'parsing time "2024-13-02T00:00:00Z": month out of range');
    assert.equal(goTimeParseError('2023-02-29T00:00:00Z', false), 'parsing time "2023-02-29T00:00:00Z": day out of range');
    assert.equal(goTimeParseError('2024-01-02T24:00:00Z', false), 'parsing time "2024-01-02T24:00:00Z": hour out of range');
    assert.equal(goTimeParseError('2024-01-02T03:04:05Zjunk', false), 'parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"');
  });

  it('holds MicroTime to exactly six fractional digits', () => {
    assert.equal(goTimeParseError('2024-01-02T03:04:05.123456Z', true), undefined);
    const layout = '"2006-01-02T15:04:05.000000Z07:00"';
    assert.equal(goTimeParseError('2024-01-02T03:04:05Z', true), `parsing time "2024-01-02T03:04:05Z" as ${layout}: cannot parse "Z" as ".000000"`);
    assert.equal(goTimeParseError('2024-01-02T03:04:05.123Z', true), `parsing time "2024-01-02T03:04:05.123Z" as ${layout}: cannot parse ".123Z" as ".000000"`);
  });

  it('quotes as Go does', () => {
    assert.equal(goTimeParseError('a"b\n', false), `parsing time "a\\"b\\x0a" as ${rfc3339}: cannot parse "a\\"b\\x0a" as "2006"`);
  });
});
