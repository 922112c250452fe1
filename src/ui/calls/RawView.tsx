import { isToolCall, type CallSummary } from '../../model/types';
import { formatTime } from '../format';
import { CopyButton } from './CopyButton';
import { JsonTree } from './JsonTree';
import styles from './calls.module.css';
import { countOf } from '../format';

/** The merged state of a call and every update that made it, for checking the viewer's work. */
export function RawView({ call }: { call: CallSummary }) {
  // A row a light read could not read again has no history: its row is what there is.
  const { history, ...merged } = isToolCall(call) ? call : { ...call, history: [] };
  return (
    <div className={styles.body}>
      <div className={styles.heading}>History ({countOf(history.length, 'update')})</div>
      <table className={styles.history}>
        <thead>
          <tr>
            <th>Line</th>
            <th>Time</th>
            <th>Source</th>
            <th>Fields set</th>
            <th>Envelope</th>
          </tr>
        </thead>
        <tbody>
          {history.map((h, i) => (
            <tr key={i}>
              <td>{h.line}</td>
              <td>{h.ts !== undefined ? formatTime(h.ts) : '—'}</td>
              <td>{h.source}</td>
              <td>{h.fields.join(', ')}</td>
              <td>{h.invalidEnvelope ? <span className={styles.bad}>invalid: {h.invalidEnvelope}</span> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.heading}>
        Merged state <CopyButton label="Copy JSON" text={() => JSON.stringify(call, null, 2)} />
      </div>
      <JsonTree value={merged} open />
    </div>
  );
}
