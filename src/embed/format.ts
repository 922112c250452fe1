// The viewer's formatting, for the app's own pages (the recordings list): sizes read the same
// there as in the viewer's status line. Not part of the library's entry (index.ts).
export { formatBytes } from '../ui/format';
