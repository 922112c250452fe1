import { Component, memo, useState, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { errorMessage } from '../boundary/RowBoundary';
import { markdownRisk } from './markdownSafety';
import { safeHref } from './safeUrl';
import styles from './text.module.css';

// Untrusted text: react-markdown never renders raw HTML without rehype-raw (not used), links go
// through safeHref, and images are shown as their alt text and address, never fetched.
const components: Components = {
  a: ({ href, children }) => {
    const safe = href ? safeHref(href) : '';
    return safe ? (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span className={styles.deadLink} title={href}>
        {children}
      </span>
    );
  },
  img: ({ alt, src }) => (
    <span className={styles.deadLink}>
      [image{alt ? `: ${alt}` : ''}]{typeof src === 'string' && src ? ` ${src.slice(0, 200)}` : ''}
    </span>
  ),
};

/** How much plain text is laid out at once: a 10 MB message would take seconds to lay out whole. */
export const PLAIN_PAGE_CHARS = 100_000;

/** Text as it is, drawn a page at a time. */
export function PlainText({ text, note, className }: { text: string; note?: string | undefined; className?: string | undefined }) {
  const [shown, setShown] = useState(PLAIN_PAGE_CHARS);
  const rest = text.length - shown;
  return (
    <div className={className} data-plain-text>
      {note ? <div className={styles.plainNote}>{note}</div> : null}
      <pre className={styles.plain}>{rest > 0 ? text.slice(0, shown) : text}</pre>
      {rest > 0 ? (
        <button type="button" className={styles.more} onClick={() => setShown((n) => n + PLAIN_PAGE_CHARS)}>
          Show more ({rest.toLocaleString('en')} characters not shown)
        </button>
      ) : null}
    </div>
  );
}

/** Anything the renderer throws on (beyond what markdownRisk foresees) shows the text plain. */
class PlainOnError extends Component<{ text: string; children: ReactNode }, { error: unknown; failedText: string | null }> {
  override state = { error: null as unknown, failedText: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { text: string }, state: { error: unknown; failedText: string | null }) {
    if (state.error !== null && state.failedText !== null && state.failedText !== props.text) return { error: null, failedText: null };
    return null;
  }

  override componentDidCatch(): void {
    this.setState({ failedText: this.props.text });
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return <PlainText text={this.props.text} note={`shown as plain text: it could not be formatted (${errorMessage(this.state.error)})`} />;
  }
}

/**
 * Prose that no markdown construct can start in: letters, digits, spaces and punctuation that is
 * never markup, with no line starting in a space or a digit (code blocks, ordered lists) and no line
 * break made by trailing spaces. Much of what agents say and think is such prose.
 */
const PROSE = /^(?:[\p{L}\p{N}.,;:?'"()/%$@{}]+(?: [\p{L}\p{N}.,;:?'"()/%$@{}]+)* ?)?$/u;
const STARTS_WITH_DIGIT = /^\p{N}/u;

/** The paragraphs of `text` if it is plain prose (rendered as markdown would), else null. */
export function proseParagraphs(text: string): string[] | null {
  const paragraphs = text.split(/\n{2,}/);
  for (const paragraph of paragraphs) {
    for (const line of paragraph.split('\n')) {
      if (!PROSE.test(line) || STARTS_WITH_DIGIT.test(line)) return null;
    }
  }
  // As the parser does: a space before a line break is dropped, and so are empty paragraphs.
  return paragraphs.map((paragraph) => paragraph.replace(/ \n/g, '\n').trim()).filter((paragraph) => paragraph !== '');
}

// Memoised: rows re-render whenever the session grows, and parsing markdown is the costly part.
export const SafeMarkdown = memo(function SafeMarkdown({ text }: { text: string }) {
  const risk = markdownRisk(text);
  if (risk !== null) return <PlainText className={styles.markdown} text={text} note={`shown as plain text: ${risk}`} />;
  // Prose skips the markdown parser (tens of microseconds per message, which add up when a page of
  // rows appears at once) and renders what the parser would have.
  const prose = proseParagraphs(text);
  if (prose !== null) {
    return (
      <div className={styles.markdown}>
        {prose.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </div>
    );
  }
  return (
    <PlainOnError text={text}>
      <div className={styles.markdown}>
        <Markdown urlTransform={safeHref} components={components} skipHtml={false}>
          {text}
        </Markdown>
      </div>
    </PlainOnError>
  );
});
