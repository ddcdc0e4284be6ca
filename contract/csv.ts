// CSV as the orders export writes it (issue 13, item 5), shared by the server, which writes the file,
// and the browser, which fills in owner-sealed addresses after unlocking (docs/decisions/0025).

/**
 * A spreadsheet runs a cell that starts with = + - @ as a formula (and tab or carriage return can
 * hide such a start): a customer's name "=HYPERLINK(...)" would run on the owner's machine. Such a
 * cell gets a leading single quote, which spreadsheets show as text (OWASP's advice for CSV).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell, neutralised and quoted as RFC 4180 asks when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null | undefined): string {
  const text = neutraliseCell(value == null ? "" : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ended by CRLF as RFC 4180 has it. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

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
