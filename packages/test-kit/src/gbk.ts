/**
 * Text as Chinese Excel and WPS save a CSV: GBK bytes (code page 936), for the tests that upload such
 * a file. Node decodes GBK (the WHATWG Encoding Standard's table) but has no encoder, so the table is
 * read backwards once, from every two-byte sequence it decodes; ASCII stays one byte.
 */
let table: Map<string, number> | undefined;

const encoderTable = () => {
  if (table) return table;
  const found = new Map<string, number>();
  const decoder = new TextDecoder('gbk');
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(new Uint8Array([lead, trail]));
      // The first sequence of a character is the one GBK writes; unmapped sequences decode to U+FFFD.
      if (char.length === 1 && char !== '\uFFFD' && !found.has(char)) found.set(char, (lead << 8) | trail);
    }
  }
  table = found;
  return found;
};

/** `text` in GBK; a character GBK has no two bytes for is an error (the test chose it wrongly). */
export const gbkBytes = (text: string): Buffer => {
  const codes = encoderTable();
  const bytes: number[] = [];
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    if (point < 0x80) {
      bytes.push(point);
      continue;
    }
    const code = codes.get(char);
    if (code === undefined) throw new Error(`GBK has no code for ${JSON.stringify(char)}`);
    bytes.push(code >> 8, code & 0xff);
  }
  return Buffer.from(bytes);
};
