// What the name of a `loupe tee` recording says: `2026-11-30T20-15-03-123Z_my-agent_4242.jsonl`,
// the time it started, the agent's name and tee's process id (written by cli/captures.ts captureName).

/** The start time, when the name begins with one as tee writes it. */
export function timeInCaptureName(name: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(name);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The agent's name, between the time and the process id. */
export function agentInCaptureName(name: string): string | undefined {
  return /^[^_]+_(.+)_\d+\.jsonl$/.exec(name)?.[1];
}
