// A hostile session: every text field a viewer draws carries markup, script URLs or SVG. Written as
// persisted ACP updates (the Grok Build shape) so the model folds every line into a row.
const SID = 'xss-session';
const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=1</script>';
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=1"><script>window.__xss=1</script><circle r="5"/></svg>`;
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

const update = (u: Record<string, unknown>, ms: number) => ({
  timestamp: 1785193970 + ms,
  method: 'session/update',
  params: { sessionId: SID, update: u, _meta: { agentTimestampMs: 1785193970000 + ms * 1000 } },
});

export const XSS_CALL_IDS = ['xss-run', 'xss-fetch', 'xss-edit', 'xss-other'];

export function xssSessionLines(): string[] {
  const records: unknown[] = [
    update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: `hello ${IMG} ${SCRIPT}` } }, 0),
    update({ sessionUpdate: 'user_message_chunk', content: { type: 'image', mimeType: 'image/svg+xml', data: b64(SVG) } }, 0),
    update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `thinking ${IMG}` } }, 1),
    update(
      {
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text: `See [click me](javascript:window.__xss=1) and <a href="javascript:window.__xss=1">raw link</a> ${IMG}\n\n![pic](javascript:window.__xss=1)\n\n${SCRIPT}`,
        },
      },
      2,
    ),
    update({ sessionUpdate: 'plan', entries: [{ content: `step ${IMG}`, status: 'pending', priority: 'high' }] }, 3),
    update(
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'xss-run',
        title: `run ${IMG}`,
        kind: 'execute',
        status: 'completed',
        rawInput: { command: `echo "${SCRIPT}"` },
        content: [
          { type: 'content', content: { type: 'text', text: `\u001b[31m${IMG}\u001b[0m` } },
          { type: 'content', content: { type: 'image', mimeType: 'image/svg+xml', data: b64(SVG) } },
          { type: 'content', content: { type: 'image', mimeType: 'text/html', data: b64(`<html><body>${SCRIPT}</body></html>`) } },
          { type: 'content', content: { type: 'resource_link', uri: 'javascript:window.__xss=1', name: `res ${IMG}` } },
        ],
        rawOutput: { exit_code: 0, stdout: SCRIPT },
      },
      4,
    ),
    update({ sessionUpdate: 'tool_call', toolCallId: 'xss-fetch', title: 'fetch', kind: 'fetch', status: 'completed', rawInput: { url: 'javascript:window.__xss=1' }, content: [{ type: 'content', content: { type: 'text', text: `[x](javascript:window.__xss=1) ${IMG}` } }] }, 5),
    update({ sessionUpdate: 'tool_call', toolCallId: 'xss-edit', title: 'edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: `/tmp/${IMG}`, oldText: SCRIPT, newText: IMG }] }, 6),
    update({ sessionUpdate: 'tool_call', toolCallId: 'xss-other', title: `other ${SCRIPT}`, kind: 'other', status: 'failed', rawInput: { html: IMG, svg: SVG } }, 7),
    { weird: IMG, also: SCRIPT },
  ];
  return records.map((r) => JSON.stringify(r));
}
