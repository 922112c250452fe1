import { useRef, type KeyboardEvent } from 'react';
import { VIEW_TITLES, VIEWS, type ViewName } from './views';
import styles from './insights.module.css';

/** The strip that switches between the transcript and the views beside it (arrow keys move along it). */
export function ViewTabs({ view, onChange }: { view: ViewName; onChange: (view: ViewName) => void }) {
  const refs = useRef(new Map<ViewName, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const at = VIEWS.indexOf(view);
    const next = e.key === 'ArrowRight' ? at + 1 : e.key === 'ArrowLeft' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? VIEWS.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    e.stopPropagation();
    const target = VIEWS[(next + VIEWS.length) % VIEWS.length];
    if (!target) return;
    onChange(target);
    refs.current.get(target)?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" className={styles.tabs} onKeyDown={onKeyDown}>
      {VIEWS.map((v) => (
        <button
          key={v}
          ref={(el) => {
            if (el) refs.current.set(v, el);
            else refs.current.delete(v);
          }}
          type="button"
          role="tab"
          id={`loupe-tab-${v}`}
          aria-selected={v === view}
          tabIndex={v === view ? 0 : -1}
          className={styles.tab}
          data-view={v}
          onClick={() => onChange(v)}
        >
          {VIEW_TITLES[v]}
        </button>
      ))}
    </div>
  );
}
