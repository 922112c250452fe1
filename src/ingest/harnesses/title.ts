// A session's title: the first thing a person asked, on one line. Harnesses wrap prompts in their
// own bookkeeping (Claude Code's `<command-name>` and `<local-command-caveat>`, Codex's
// `<environment_context>` and AGENTS.md preamble), which says nothing about the session.

/** Blocks a harness adds around or instead of a prompt: removed with their content. */
const BOILERPLATE_BLOCKS = [
  'environment_context', 'user_instructions', 'local-command-caveat', 'local-command-stdout', 'local-command-stderr', 'system-reminder',
  'command-message', 'session_context', 'user-prompt-submit-hook', 'permissions instructions', 'turn_aborted', 'ide_opened_file', 'ide_selection',
];
const BLOCK = new RegExp(`<(${BOILERPLATE_BLOCKS.map((tag) => tag.replace(/[-\s]/g, (c) => (c === ' ' ? '\\s' : '-'))).join('|')})>[\\s\\S]*?</\\1>`, 'g');
/** Whole messages that are a harness's instructions, not a person's words. */
const PREAMBLES = [/^# AGENTS\.md instructions/, /^<INSTRUCTIONS>/, /^Caveat: The messages below were generated/];
export const TITLE_MAX_CHARS = 120;

/**
 * The prompt as a title, or null when nothing a person wrote is left. A slash command
 * (`<command-name>/model</command-name><command-args>opus</command-args>`) reads `/model opus`;
 * `isCommand` says so, as a later plain prompt names a session better.
 */
export function promptTitle(text: string): { title: string; isCommand: boolean } | null {
  if (PREAMBLES.some((preamble) => preamble.test(text.trimStart()))) return null;
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text);
    const title = oneLine(`${command[1] ?? ''} ${args?.[1] ?? ''}`);
    return title === '' ? null : { title, isCommand: true };
  }
  const title = oneLine(text.replace(BLOCK, ' '));
  return title === '' ? null : { title, isCommand: false };
}

/** Whitespace and control characters as single spaces, cut at TITLE_MAX_CHARS with an ellipsis. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length <= TITLE_MAX_CHARS ? flat : `${flat.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
}
