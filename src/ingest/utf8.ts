/** UTF-8 byte length of `text.slice(0, end)` without encoding it. */
export function utf8Length(text: string, end = text.length): number {
  let bytes = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
