// The views beside the transcript, by the names the URL uses (`#view=stats`).
export const VIEWS = ['transcript', 'timeline', 'stats', 'sessions', 'usage'] as const;
export type ViewName = (typeof VIEWS)[number];

export const VIEW_TITLES: Record<ViewName, string> = {
  transcript: 'Transcript',
  timeline: 'Timeline',
  stats: 'Stats',
  sessions: 'Sessions',
  usage: 'Usage',
};
