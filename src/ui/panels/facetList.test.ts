import { describe, expect, it } from 'vitest';
import { visibleFacets } from './facetList';

const many = Array.from({ length: 50_000 }, (_, i) => ({ label: `tool_${i}`, count: 50_000 - i }));

describe('visibleFacets', () => {
  it('draws only the most used labels of 50,000, and counts the rest', () => {
    const { shown, hidden } = visibleFacets(many, [], '', 30);
    expect(shown.map((f) => f.label)).toEqual(many.slice(0, 30).map((f) => f.label));
    expect(hidden).toBe(49_970);
  });

  it('narrows to labels containing what is typed, in any case', () => {
    const { shown, hidden } = visibleFacets(many, [], 'TOOL_4999', 30);
    expect(shown.map((f) => f.label)).toEqual(['tool_4999', 'tool_49990', 'tool_49991', 'tool_49992', 'tool_49993', 'tool_49994', 'tool_49995', 'tool_49996', 'tool_49997', 'tool_49998', 'tool_49999']);
    expect(hidden).toBe(0);
  });

  it('always draws a checked label, even one past the limit or not matching', () => {
    const { shown } = visibleFacets(many, ['tool_40000'], 'tool_1', 5);
    expect(shown.map((f) => f.label)).toEqual(['tool_1', 'tool_10', 'tool_11', 'tool_12', 'tool_13', 'tool_40000']);
  });
});
