// The library's only public entry.
export { SessionViewer, type SessionViewerProps, type SessionSource } from './SessionViewer';
export type { Filter } from '../store/filter';
export type { ThemeChoice } from '../ui/SessionView';
export type { CompareCall } from '../ui/compare/CompareView';
export { VIEWS, type ViewName } from '../ui/insights/views';
export type { CallSummary, ToolCall, DisplayStatus, Session, CallNote, FileNotes } from '../model';
export { formatName, isSubagentFileName } from '../model';
export { shortProject } from '../analysis/projectName';
