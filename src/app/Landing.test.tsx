// @vitest-environment jsdom
// The landing page a first visit sees: where agents keep their own logs, and samples of each kind,
// a Claude Code log among them, each a file the app serves.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Landing, SAMPLES } from './Landing';

afterEach(cleanup);

it('says where Claude Code, Codex and Gemini CLI keep their sessions and how to open them', () => {
  render(<Landing />);
  const places = within(screen.getByTestId('agent-logs')).getAllByRole('listitem').map((item) => item.textContent);
  expect(places).toEqual([
    expect.stringMatching(/^Claude Code: ~\/\.claude\/projects\/<project>\/<session>\.jsonl/),
    expect.stringMatching(/^Codex: ~\/\.codex\/sessions\/YYYY\/MM\/DD\/rollout-\*\.jsonl/),
    expect.stringMatching(/^Gemini CLI: ~\/\.gemini\/tmp\/<project>\/chats\//),
  ]);
  expect(document.body.textContent).toMatch(/loupe open PATH; loupe open with no path lists them all/);
});

it('links a native Claude Code log beside the ACP samples, and every sample is in public/', () => {
  render(<Landing />);
  const link = screen.getByRole('link', { name: 'Claude Code: its own log' });
  expect(link.getAttribute('href')).toBe('?src=samples/claude-code-2.1.83.jsonl');
  for (const sample of SAMPLES) expect(existsSync(join(import.meta.dirname, '../../public', sample.href)), sample.href).toBe(true);
});
