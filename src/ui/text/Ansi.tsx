import { useMemo, useState, type CSSProperties } from 'react';
import { parseAnsi, terminalTail, type AnsiStyle } from './ansi';
import styles from './text.module.css';

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

/** Terminal text with ANSI colours, as spans; the end of a long output until all is asked for. */
export function Ansi({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const shown = useMemo(() => (all ? { text, omitted: 0 } : terminalTail(text)), [text, all]);
  const spans = useMemo(() => parseAnsi(shown.text), [shown]);
  return (
    <pre className={styles.terminal} data-terminal>
      {shown.omitted > 0 ? (
        <span className={styles.dim}>
          … {shown.omitted.toLocaleString('en')} earlier characters not shown{' '}
          <button type="button" className={styles.more} onClick={() => setAll(true)}>
            Show all
          </button>
          {'\n'}
        </span>
      ) : null}
      {spans.map((p, i) => (
        <span key={i} style={css(p.style)}>
          {p.text}
        </span>
      ))}
    </pre>
  );
}
