/** Reads RFC 4180 text back into records, strictly: a stray quote or a bare CR/LF throws. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  while (at < text.length) {
    let field = "";
    if (text[at] === '"') {
      at++;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote < 0) throw new Error("unterminated quoted field");
        field += text.slice(at, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          at = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
    } else {
      const end = text.slice(at).search(/[,\r\n"]/);
      const stop = end < 0 ? text.length : at + end;
      if (text[stop] === '"') throw new Error(`a quote inside an unquoted field at ${stop}`);
      field = text.slice(at, stop);
      at = stop;
    }
    record.push(field);
    if (text[at] === ",") at++;
    else if (text.startsWith("\r\n", at)) {
      records.push(record);
      record = [];
      at += 2;
    } else throw new Error(`expected , or CRLF at ${at}, got ${JSON.stringify(text[at])}`);
  }
  if (record.length > 0) throw new Error("the last record has no CRLF");
  return records;
}
