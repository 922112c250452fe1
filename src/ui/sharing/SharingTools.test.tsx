// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SharingTools } from './SharingTools';

afterEach(cleanup);

function showTools() {
  const exportAs = () => Promise.resolve({ blob: new Blob(['x']), name: 'session.jsonl' });
  render(
    <div>
      <SharingTools redact={false} onRedactChange={() => undefined} exportAs={exportAs} htmlExport />
      <button type="button">Elsewhere</button>
    </div>,
  );
  const toggle = screen.getByRole('button', { name: 'Export ▾' });
  act(() => toggle.click());
  return toggle;
}

describe('the Export menu', () => {
  it('takes the keyboard when opened: the first format is focused and the arrows move between formats', () => {
    showTools();
    const items = screen.getAllByRole('menuitem');
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'ArrowUp' });
    fireEvent.keyDown(items[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[items.length - 1]);
  });

  it('closes on Escape and gives focus back to the Export button', () => {
    const toggle = showTools();
    fireEvent.keyDown(screen.getAllByRole('menuitem')[0]!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when the person clicks or moves focus elsewhere', () => {
    showTools();
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    fireEvent.pointerDown(elsewhere);
    expect(screen.queryByRole('menu')).toBeNull();

    act(() => screen.getByRole('button', { name: 'Export ▾' }).click());
    expect(screen.getByRole('menu')).toBeTruthy();
    act(() => elsewhere.focus());
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stays open while the pointer is on its own items', () => {
    showTools();
    fireEvent.pointerDown(screen.getAllByRole('menuitem')[1]!);
    expect(screen.getByRole('menu')).toBeTruthy();
  });
});
