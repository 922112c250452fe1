// A size as a person reads it, the same in the viewer's status line, the recordings list and `loupe ls`.

/** Bytes in binary units: 512 B, 1.5 KB, 12.0 MB, 1.25 GB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
