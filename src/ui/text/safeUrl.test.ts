import { describe, expect, it } from 'vitest';
import { imageDataUri, safeHref } from './safeUrl';

describe('safeHref', () => {
  it('keeps web and mail links', () => {
    expect(safeHref('https://example.com/a?b')).toBe('https://example.com/a?b');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHref('#section')).toBe('#section');
  });
  it('neutralises script and data links, however disguised', () => {
    for (const u of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:x', '//evil.example/x'])
      expect(safeHref(u)).toBe('');
  });
});

describe('imageDataUri', () => {
  it('builds data URIs for raster images only', () => {
    expect(imageDataUri('image/png', 'iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageDataUri('image/svg+xml', 'PHN2Zz4=')).toBeNull();
    expect(imageDataUri('text/html', 'PGI+')).toBeNull();
    expect(imageDataUri('image/png', '"><script>')).toBeNull();
  });
});
