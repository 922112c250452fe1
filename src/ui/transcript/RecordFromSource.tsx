import { useEffect, useState } from 'react';
import type { Result } from '../../ingest/result';
import type { SourceLocation } from '../../model';
import { JsonTree } from '../calls/JsonTree';
import styles from './transcript.module.css';

/** Reads the record at `loc` from the loaded file again (SessionController.readRecord). */
export type ReadRecord = (loc: SourceLocation) => Promise<Result<unknown>>;

type Reading = { loc: SourceLocation } & ({ state: 'read'; value: unknown } | { state: 'failed'; error: string });

/**
 * An entry a light read left in its line (an agent's log entry shown by its type alone), read
 * from the file when its row is opened and shown as the tree a full read would have shown.
 */
export function RecordFromSource({ loc, read }: { loc: SourceLocation; read: ReadRecord | undefined }) {
  // What was read, and of which entry: another entry's answer is not this one's.
  const [reading, setReading] = useState<Reading | null>(null);
  useEffect(() => {
    if (!read) return;
    let current = true;
    read(loc).then(
      (result) => current && setReading(result.ok ? { loc, state: 'read', value: result.value } : { loc, state: 'failed', error: result.error }),
      (err: unknown) => current && setReading({ loc, state: 'failed', error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      current = false;
    };
  }, [read, loc]);
  if (!read) return <div className={styles.muted}>This entry was left in the file (it is large), and this viewer cannot read the file again.</div>;
  if (reading?.loc === loc && reading.state === 'read') return <JsonTree value={reading.value} />;
  if (reading?.loc === loc && reading.state === 'failed') {
    return (
      <div className={styles.bad} role="alert">
        This entry could not be read again from the file: {reading.error}
      </div>
    );
  }
  return <div className={styles.muted}>Reading this entry from the file…</div>;
}
