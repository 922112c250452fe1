// URLs from a session are untrusted. Only these schemes become clickable; anything else
// (javascript:, data:, vbscript:, file: …) is dropped so the link renders as inert text.
const SAFE = /^(https?:|mailto:)/i;

export function safeHref(url: string): string {
  const trimmed = url.trim();
  // Strip control characters and whitespace browsers ignore inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const probe = trimmed.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (SAFE.test(probe)) return trimmed;
  // Fragment and relative links stay inside the page; a relative path cannot carry a scheme.
  if (/^[#/?]/.test(probe) && !probe.startsWith('//')) return trimmed;
  return '';
}

const IMAGE_MIME = /^image\/(png|jpe?g|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/i;

/** A data: URI for an inline image, only for raster image types (SVG can carry script; it is shown as text). */
export function imageDataUri(mimeType: string, base64: string): string | null {
  if (!IMAGE_MIME.test(mimeType)) return null;
  if (!/^[A-Za-z0-9+/=\s]*$/.test(base64)) return null;
  return `data:${mimeType.toLowerCase()};base64,${base64.replace(/\s+/g, '')}`;
}

export function decodeBase64Text(b64: string): string {
  try {
    const bin = atob(b64.replace(/\s+/g, ''));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return b64;
  }
}
