// The timeline's pointers: one drags (pans), two pinch (zoom); hovering a bar shows its call,
// clicking one opens it.
import { useRef, type PointerEvent } from 'react';
import type { TimelineLayout } from '../../analysis/timeline';
import type { TimelineViewport } from './useTimelineViewport';

export interface Hover {
  bar: number;
  x: number;
  y: number;
}

export interface TimelinePointers {
  onPointerDown: (e: PointerEvent<HTMLCanvasElement>) => void;
  onPointerMove: (e: PointerEvent<HTMLCanvasElement>) => void;
  onPointerUp: (e: PointerEvent<HTMLCanvasElement>) => void;
  onPointerCancel: (e: PointerEvent<HTMLCanvasElement>) => void;
}

export function useTimelinePointers(
  layout: TimelineLayout,
  view: Pick<TimelineViewport, 'zoomAround' | 'panBy' | 'barUnder'>,
  hover: Hover | null,
  setHover: (hover: Hover | null) => void,
  /** A bar hovered: the one stepped to with the keys is no longer where the tooltip shows. */
  clearKeyHover: () => void,
  onOpenCall: (callKey: string) => void,
): TimelinePointers {
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const dragged = useRef(false);
  const pinchDistance = useRef<number | null>(null);
  const local = (e: PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  /** Pinches or drags with the pointers down; false when none is (the pointer only hovers). */
  const moveHeld = (pointerId: number, p: { x: number; y: number }): boolean => {
    const prev = pointers.current.get(pointerId);
    if (!prev) return false;
    pointers.current.set(pointerId, p);
    if (pointers.current.size === 2 && pinchDistance.current !== null) {
      const points = [...pointers.current.values()];
      const d = distanceOf(points);
      if (d > 0) view.zoomAround(pinchDistance.current / d, ((points[0]?.x ?? 0) + (points[1]?.x ?? 0)) / 2);
      pinchDistance.current = d;
      dragged.current = true;
      return true;
    }
    const dx = p.x - prev.x;
    const dy = p.y - prev.y;
    if (!dragged.current && Math.abs(dx) + Math.abs(dy) <= 3) return false;
    dragged.current = true;
    view.panBy(-dx, -dy);
    return true;
  };

  return {
    onPointerDown: (e) => {
      pointers.current.set(e.pointerId, local(e));
      dragged.current = false;
      if (pointers.current.size === 2) pinchDistance.current = distanceOf([...pointers.current.values()]);
      e.currentTarget.setPointerCapture?.(e.pointerId);
    },
    onPointerMove: (e) => {
      const p = local(e);
      if (moveHeld(e.pointerId, p)) return;
      const bar = view.barUnder(p.x, p.y);
      if (bar === null) {
        if (hover) setHover(null);
      } else if (bar !== hover?.bar || Math.abs(p.x - hover.x) > 8 || Math.abs(p.y - hover.y) > 8) {
        clearKeyHover();
        setHover({ bar, x: p.x, y: p.y });
      }
    },
    onPointerUp: (e) => {
      const p = local(e);
      pointers.current.delete(e.pointerId);
      if (pointers.current.size < 2) pinchDistance.current = null;
      if (dragged.current || e.button !== 0) return;
      const bar = view.barUnder(p.x, p.y);
      const key = bar === null ? undefined : layout.keys[bar];
      if (key !== undefined) onOpenCall(key);
    },
    onPointerCancel: (e) => void pointers.current.delete(e.pointerId),
  };
}

function distanceOf(points: { x: number; y: number }[]): number {
  const [a, b] = points;
  return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
}
