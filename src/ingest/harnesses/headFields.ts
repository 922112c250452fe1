// Small readers the harnesses' head notes share (head.ts drives them).
import { isJsonObject, type JsonObject } from '../json';
import { promptTitle } from './title';
import type { SessionHead } from './types';

/** The prompt `text` as the head's title when it names the session better than the one it has. */
export function noteTitle(head: SessionHead, text: string): void {
  if (head.title !== null && !head.titleIsCommand) return;
  const read = promptTitle(text);
  if (read === null || (head.title !== null && read.isCommand)) return;
  head.title = read.title;
  head.titleIsCommand = read.isCommand;
}

export function objectAt(value: JsonObject | undefined, key: string): JsonObject | undefined {
  const inner = value?.[key];
  return isJsonObject(inner) ? inner : undefined;
}

export function stringAt(value: JsonObject | undefined, key: string): string | null {
  const inner = value?.[key];
  return typeof inner === 'string' && inner !== '' ? inner : null;
}

/** The text of a prompt's content: a string, or the text of its `text`/`input_text` blocks. */
export function textOfContent(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    // Gemini's parts carry no type: a `text` that is not a thought is text.
    const typed = block.type === 'text' || block.type === 'input_text' || (block.type === undefined && block.thought !== true);
    if (typed && typeof block.text === 'string') texts.push(block.text);
  }
  return texts.length > 0 ? texts.join('\n') : null;
}
