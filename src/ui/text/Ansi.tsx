import Anser from 'anser';
import { useMemo, type CSSProperties } from 'react';
import styles from './text.module.css';

const MAX_CHARS = 400_000;

/** Terminal text with ANSI colours, as spans (anser's JSON output; never its HTML output). */
export function Ansi({ text }: { text: string }) {
  const clipped = text.length > MAX_CHARS ? text.slice(text.length - MAX_CHARS) : text;
  const parts = useMemo(() => Anser.ansiToJson(clipped, { json: true, remove_empty: true }), [clipped]);
  return (
    <pre className={styles.terminal}>
      {clipped !== text ? <span className={styles.dim}>… {text.length - MAX_CHARS} earlier characters not shown{'\n'}</span> : null}
      {parts.map((p, i) => {
        const style: CSSProperties = {};
        if (p.fg) style.color = `rgb(${p.fg})`;
        if (p.bg) style.backgroundColor = `rgb(${p.bg})`;
        if (p.decorations.includes('bold')) style.fontWeight = 'bold';
        if (p.decorations.includes('italic')) style.fontStyle = 'italic';
        if (p.decorations.includes('underline')) style.textDecoration = 'underline';
        if (p.decorations.includes('dim')) style.opacity = 0.7;
        return (
          <span key={i} style={style}>
            {p.content}
          </span>
        );
      })}
    </pre>
  );
}
