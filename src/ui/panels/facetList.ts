// Which label facets the filter panel draws: a session can name any number of labels (50,000
// distinct ones were 50,000 checkboxes and 27 s), so only the most used, the ones matching what
// is typed, and the ones checked are drawn.

export interface LabelFacet {
  label: string;
  count: number;
}

/** Labels drawn before any "show more". */
export const FACETS_SHOWN = 30;
/** Labels each "show more" adds. */
export const FACETS_PAGE = 200;

/**
 * The facets to draw from `facets` (most used first), at most `limit` of them, narrowed to those
 * containing `query` (any case); checked labels are always drawn. `hidden` counts the rest.
 */
export function visibleFacets(facets: readonly LabelFacet[], selected: readonly string[], query: string, limit: number): { shown: LabelFacet[]; hidden: number } {
  const q = query.trim().toLowerCase();
  const shown: LabelFacet[] = [];
  const selectedSet = new Set(selected);
  let matching = 0;
  for (const f of facets) {
    const matches = q === '' || f.label.toLowerCase().includes(q);
    if (matches) matching++;
    if ((matches && shown.length < limit) || selectedSet.has(f.label)) shown.push(f);
  }
  const shownMatching = q === '' ? shown.length : shown.filter((f) => f.label.toLowerCase().includes(q)).length;
  return { shown, hidden: Math.max(0, matching - shownMatching) };
}
