// What the first lines of a dropped or picked file say (ingest/harnesses/head.ts), for the app's
// own pages before they open it. Not part of the library's entry (index.ts).
export { blobHeadSource, readHead } from '../ingest/harnesses/head';
