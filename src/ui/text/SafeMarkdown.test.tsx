// @vitest-environment jsdom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import Markdown from 'react-markdown';
import { PLAIN_PAGE_CHARS, proseParagraphs, SafeMarkdown } from './SafeMarkdown';

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

  it('shows 3,000 nested blockquotes as plain text with a note, instead of overflowing the stack', () => {
    const text = `${'>'.repeat(3000)} deep`;
    const { container, getByText } = render(<SafeMarkdown text={text} />);
    getByText('shown as plain text: too deeply nested to format');
    expect(container.querySelector('blockquote')).toBeNull();
    expect(container.querySelector('pre')?.textContent).toBe(text);
  });

  it('lays out a huge message a page at a time', () => {
    const text = 'y'.repeat(PLAIN_PAGE_CHARS * 2 + 5);
    const { container, getByRole } = render(<SafeMarkdown text={text} />);
    expect(container.querySelector('pre')?.textContent).toHaveLength(PLAIN_PAGE_CHARS);
    fireEvent.click(getByRole('button', { name: /Show more \(100,005 characters not shown\)/ }));
    expect(container.querySelector('pre')?.textContent).toHaveLength(PLAIN_PAGE_CHARS * 2);
    fireEvent.click(getByRole('button', { name: /Show more/ }));
    expect(container.querySelector('pre')?.textContent).toBe(text);
    expect(container.querySelector('button')).toBeNull();
  });
});

describe('SafeMarkdown on plain prose', () => {
  const samples = [
    'ledger event call tool diff the key the read ledger',
    'Reading the file now. Then I will run the tests (all of them), and fix what fails?',
    'first paragraph\nstill the first\n\nsecond one: with "quotes", 50% and $5 at noon',
    'trailing space \nand more',
    'ünïcödé prose, 日本語 too',
  ];
  it.each(samples)('renders what the markdown parser renders: %j', (text) => {
    expect(proseParagraphs(text)).not.toBeNull();
    const blocks = (container: HTMLElement) => [...(container.firstElementChild?.children ?? [])].map((el) => `${el.tagName}:${el.textContent ?? ''}`);
    const fast = blocks(render(<SafeMarkdown text={text} />).container);
    cleanup();
    const parsed = blocks(render(<div><Markdown>{text}</Markdown></div>).container);
    expect(fast).toEqual(parsed);
    expect(fast.length).toBeGreaterThan(0);
  });

  it.each(['**bold**', '- item', '1. first', '# title', '    code', 'a  \nhard break', 'x_y_', '`code`', '[a](b)', 'a\n---', '<b>', 'a &amp; b', 'a\\*b', '> quote', '2) two'])(
    'leaves text with markup to the parser: %j',
    (text) => {
      expect(proseParagraphs(text)).toBeNull();
    },
  );
});
