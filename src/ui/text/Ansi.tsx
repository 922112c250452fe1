import { useMemo, useState, type CSSProperties } from 'react';
import { VirtualList } from '../virtual/VirtualList';
import { ansiLines, parseAnsi, terminalTail, type AnsiSpan, type AnsiStyle } from './ansi';
import styles from './text.module.css';
import { countOf } from '../format';

function css(s: AnsiStyle): CSSProperties | undefined {
  const fg = s.inverse ? (s.bg ?? '0, 0, 0') : s.fg;
  const bg = s.inverse ? (s.fg ?? '255, 255, 255') : s.bg;
  if (!fg && !bg && !s.bold && !s.dim && !s.italic && !s.underline) return undefined;
  const style: CSSProperties = {};
  if (fg) style.color = `rgb(${fg})`;
  if (bg) style.backgroundColor = `rgb(${bg})`;
  if (s.bold) style.fontWeight = 'bold';
  if (s.italic) style.fontStyle = 'italic';
  if (s.underline) style.textDecoration = 'underline';
  if (s.dim) style.opacity = 0.7;
  return style;
}

/**
 * Terminal text with ANSI colours, as spans; the end of a long output until all is asked for. All
 * of a long output is drawn a line at a time, only the lines in view in the page: megabytes of text
 * laid out at once blocked the page for most of a second.
 */
export function Ansi({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  return all ? <AnsiLines text={text} /> : <AnsiTail text={text} onShowAll={() => setAll(true)} />;
}

function AnsiTail({ text, onShowAll }: { text: string; onShowAll: () => void }) {
  const shown = useMemo(() => terminalTail(text), [text]);
  const spans = useMemo(() => parseAnsi(shown.text), [shown]);
  return (
    <pre className={styles.terminal} data-terminal>
      {shown.omitted > 0 ? (
        <span className={styles.dim}>
          … {shown.omitted.toLocaleString('en')} earlier characters not shown{' '}
          <button type="button" className={styles.more} onClick={onShowAll}>
            Show all
          </button>
          {'\n'}
        </span>
      ) : null}
      <Spans spans={spans} />
    </pre>
  );
}

function Spans({ spans }: { spans: readonly AnsiSpan[] }) {
  return spans.map((p, i) => (
    <span key={i} style={css(p.style)}>
      {p.text}
    </span>
  ));
}

function AnsiLines({ text }: { text: string }) {
  const lines = useMemo(() => ansiLines(parseAnsi(text)), [text]);
  return (
    <div className={`${styles.terminal} ${styles.terminalLines}`} data-terminal data-terminal-lines={lines.length}>
      <VirtualList
        count={lines.length}
        estimate={17}
        rowKey={(i) => i}
        className={styles.terminalScroller}
        ariaLabel={`Terminal output, ${countOf(lines.length, 'line')}`}
        renderRow={(i) => (
          <div className={styles.terminalLine} data-terminal-line={i + 1}>
            <Spans spans={lines[i] ?? []} />
          </div>
        )}
      />
    </div>
  );
}
