import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
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

// Memoised: rows re-render whenever the session grows, and parsing markdown is the costly part.
export const SafeMarkdown = memo(function SafeMarkdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown}>
      <Markdown urlTransform={safeHref} components={components} skipHtml={false}>
        {text}
      </Markdown>
    </div>
  );
});
