// A project as people tell projects apart: by the last folders of its path (`work/loupe`), the
// whole path kept for a tooltip or --json.

export function shortProject(project: string | null): string {
  if (project === null) return '—';
  const parts = project.split('/').filter((part) => part !== '');
  return parts.length <= 2 ? project : parts.slice(-2).join('/');
}
