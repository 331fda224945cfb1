/** `head`, then `unit(0)`, `unit(1)`, … while the text stays under `bytes`, then `tail`: a page of a chosen size. */
export function repeated(bytes: number, head: string, unit: (i: number) => string, tail: string): string {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; ; i++) {
    const piece = unit(i);
    if (size + piece.length > bytes) break;
    parts.push(piece);
    size += piece.length;
  }
  parts.push(tail);
  return parts.join('');
}
