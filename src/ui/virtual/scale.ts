// Browsers cap an element's height (Chromium ~33.5M px, Firefox ~17.9M px); past that a spacer
// stops growing and the end of a long list cannot be reached. Like Inspect AI's
// scale-coordinate-space, the list is laid out in "virtual" pixels and the scroll container holds
// a spacer of at most MAX_DOM_HEIGHT; scrollTop is mapped linearly onto the virtual range so the
// first and last pixels line up, and rows are drawn 1:1 around the mapped position so nothing
// looks squashed.

export const MAX_DOM_HEIGHT = 10_000_000;

export interface ScaleSpace {
  /** Height of the spacer element in the DOM. */
  domHeight: number;
  /** Height of the list in virtual pixels. */
  virtualHeight: number;
  /** Virtual pixels per DOM scroll pixel (1 when no scaling is needed). */
  ratio: number;
}

export function scaleSpace(virtualHeight: number, viewport: number, max = MAX_DOM_HEIGHT): ScaleSpace {
  if (virtualHeight <= max) return { domHeight: virtualHeight, virtualHeight, ratio: 1 };
  const domScrollable = Math.max(1, max - viewport);
  const virtualScrollable = Math.max(0, virtualHeight - viewport);
  return { domHeight: max, virtualHeight, ratio: virtualScrollable / domScrollable };
}

/** Virtual offset at the top of the viewport for a DOM scrollTop. */
export function toVirtual(space: ScaleSpace, scrollTop: number): number {
  return space.ratio === 1 ? scrollTop : scrollTop * space.ratio;
}

/** DOM scrollTop that puts virtual offset `y` at the top of the viewport. */
export function toDom(space: ScaleSpace, y: number): number {
  return space.ratio === 1 ? y : y / space.ratio;
}
