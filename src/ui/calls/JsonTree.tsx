import { memo, useState } from 'react';
import styles from './calls.module.css';

const MAX_CHILDREN = 200;
const MAX_STRING = 2000;

/** A collapsible view of any JSON value; strings are text, never markup. */
export const JsonTree = memo(function JsonTree({ value, name, open = true, depth = 0 }: { value: unknown; name?: string; open?: boolean; depth?: number }) {
  // Children are drawn only once their node is opened: a value nested 2,000 deep, or 200 keys
  // wide at every level, would otherwise be drawn whole, closed or not.
  const [expanded, setExpanded] = useState(open && depth < 2);
  const label = name !== undefined ? <span className={styles.jsonKey}>{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className={styles.jsonLeaf}>
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  const summary = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
  if (entries.length === 0) {
    return (
      <div className={styles.jsonLeaf}>
        {label}
        <span className={styles.jsonPunct}>{Array.isArray(value) ? '[]' : '{}'}</span>
      </div>
    );
  }
  return (
    <details className={styles.jsonNode} open={expanded} onToggle={(e) => setExpanded(e.currentTarget.open)}>
      <summary>
        {label}
        <span className={styles.jsonPunct}>{summary}</span>
      </summary>
      {expanded ? (
        <div className={styles.jsonChildren}>
          {entries.slice(0, MAX_CHILDREN).map(([k, v]) => (
            <JsonTree key={k} name={k} value={v} open={open} depth={depth + 1} />
          ))}
          {entries.length > MAX_CHILDREN ? <div className={styles.dimText}>… {entries.length - MAX_CHILDREN} more</div> : null}
        </div>
      ) : null}
    </details>
  );
});

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const s = value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
    return <span className={styles.jsonString}>{JSON.stringify(s)}</span>;
  }
  return <span className={styles.jsonScalar}>{value === undefined ? 'undefined' : JSON.stringify(value)}</span>;
}
