/** Saves `blob` as a file named `name`, as a link with `download` does. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by now; the URL would only keep it in memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
