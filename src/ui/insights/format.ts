// Numbers as the insight views print them.
import { formatNumber } from '../format';

/** A count or token number: grouped, and rounded if the input gave a fraction (see formatNumber). */
export function formatCount(n: number): string {
  return formatNumber(n);
}

export function formatShare(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}
