// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SafeMarkdown } from './SafeMarkdown';

afterEach(cleanup);

describe('SafeMarkdown', () => {
  it('renders markdown but never raw HTML', () => {
    const { container } = render(<SafeMarkdown text={'**bold** <img src=x onerror="alert(1)"> <script>alert(1)</script>'} />);
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
  });

  it('keeps web links and neutralises javascript: links and images', () => {
    const { container } = render(<SafeMarkdown text={'[ok](https://example.com) [bad](javascript:alert(1)) ![i](https://example.com/t.png)'} />);
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com']);
    expect(links[0]?.getAttribute('rel')).toContain('noopener');
    expect(container.textContent).toContain('bad');
    expect(container.querySelector('img')).toBeNull();
  });
});
