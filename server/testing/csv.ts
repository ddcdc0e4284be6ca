// A strict CSV reader for the export tests (issue 13, item 5).

/**
 * RFC 4180 read back, as a spreadsheet does: quoted fields may hold commas, quotes ("") and line
 * breaks; records end with CRLF. Strict: anything a conforming writer would not produce throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  while (at < text.length) {
    let cell = "";
    if (text[at] === '"') {
      at++;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote === -1) throw new Error("unterminated quoted field");
        cell += text.slice(at, quote);
        at = quote + 1;
        if (text[at] === '"') {
          cell += '"';
          at++;
        } else break;
      }
    } else {
      const end = text.slice(at).search(/[,\r\n"]/);
      const stop = end === -1 ? text.length : at + end;
      if (text[stop] === '"') throw new Error(`a quote inside an unquoted field at ${stop}`);
      cell = text.slice(at, stop);
      at = stop;
    }
    record.push(cell);
    if (text[at] === ",") {
      at++;
    } else if (text.startsWith("\r\n", at)) {
      records.push(record);
      record = [];
      at += 2;
    } else if (at < text.length) {
      throw new Error(`unexpected ${JSON.stringify(text[at])} at ${at}`);
    }
  }
  if (record.length > 0) throw new Error("the last record has no CRLF");
  return records;
}
