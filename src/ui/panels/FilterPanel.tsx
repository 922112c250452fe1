import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { DisplayStatus } from '../../model';
import type { SessionSnapshot, SessionStore } from '../../store/createSessionStore';
import { DISPLAY_STATUSES } from '../../model/status';
import { EMPTY_FILTER, isFilterActive } from '../../store/filter';
import styles from '../SessionView.module.css';
import { FACETS_PAGE, FACETS_SHOWN, visibleFacets } from './facetList';
import { countOf } from '../format';

function toggle<T>(list: T[], v: T): T[] {
  return list.includes(v) ? list.filter((x) => x !== v) : [...list, v];
}

/** Past this many rows, filtering on each keystroke would make typing lag: wait for a pause. */
const DEBOUNCE_FROM_ROWS = 20_000;
const DEBOUNCE_MS = 150;

export function FilterPanel({ snap, store, searchRef }: { snap: SessionSnapshot; store: SessionStore; searchRef: RefObject<HTMLInputElement | null> }) {
  const { filter, facets } = snap;
  // The box shows what is typed at once; the store (and the list) follow, at once or after a pause.
  const [text, setText] = useState(filter.text);
  const [shownFilterText, setShownFilterText] = useState(filter.text);
  if (filter.text !== shownFilterText) {
    setShownFilterText(filter.text);
    setText(filter.text);
  }
  const [labelQuery, setLabelQuery] = useState('');
  const [labelLimit, setLabelLimit] = useState(FACETS_SHOWN);
  const labelFacets = useMemo(() => visibleFacets(facets.labels, filter.labels, labelQuery, labelLimit), [facets.labels, filter.labels, labelQuery, labelLimit]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const onType = (value: string): void => {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    if (store.getSnapshot().items.size < DEBOUNCE_FROM_ROWS) store.setFilter({ text: value });
    else timer.current = setTimeout(() => store.setFilter({ text: value }), DEBOUNCE_MS);
  };
  return (
    <section className={styles.panel} aria-label="Filters">
      <input
        ref={searchRef}
        type="search"
        className={styles.search}
        placeholder="Search subjects, titles, content  ( / )"
        aria-label="Search"
        value={text}
        onChange={(e) => onType(e.target.value)}
      />
      <div className={styles.panelHead}>
        <span>
          Tool calls: {facets.total.toLocaleString('en')}
          {isFilterActive(filter) ? ` · showing ${countOf(snap.shownRows.length, 'row')}` : ''}
        </span>
        {isFilterActive(filter) ? (
          <button type="button" className={styles.linkButton} onClick={() => store.setFilter(EMPTY_FILTER)}>
            Clear filters
          </button>
        ) : null}
      </div>
      <fieldset className={styles.facets}>
        <legend>By label</legend>
        {facets.labels.length > FACETS_SHOWN ? (
          <input
            type="search"
            className={styles.search}
            placeholder={`Find among ${facets.labels.length.toLocaleString('en')} labels`}
            aria-label="Find a label"
            value={labelQuery}
            onChange={(e) => setLabelQuery(e.target.value)}
          />
        ) : null}
        {labelFacets.shown.map(({ label, count }) => (
          <label key={label} className={styles.facet} data-facet-label={label}>
            <input type="checkbox" checked={filter.labels.includes(label)} onChange={() => store.setFilter({ labels: toggle(filter.labels, label) })} />
            <span className={styles.facetName} title={label}>
              {label}
            </span>
            <span className={styles.count}>{count}</span>
          </label>
        ))}
        {labelFacets.hidden > 0 ? (
          <button type="button" className={styles.linkButton} onClick={() => setLabelLimit((n) => n + FACETS_PAGE)}>
            Show more ({labelFacets.hidden.toLocaleString('en')} more labels)
          </button>
        ) : null}
        {facets.labels.length === 0 ? <div className={styles.muted}>{snap.load.state === 'loading' ? 'No tool calls yet' : 'The input holds no tool calls'}</div> : null}
      </fieldset>
      <fieldset className={styles.facets}>
        <legend>By status</legend>
        {DISPLAY_STATUSES.map((s: DisplayStatus) => (
          <label key={s} className={styles.facet} data-facet-status={s}>
            <input type="checkbox" checked={filter.statuses.includes(s)} onChange={() => store.setFilter({ statuses: toggle(filter.statuses, s) })} />
            <span className={styles.facetName}>{s}</span>
            <span className={styles.count}>{facets.statuses[s]}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
