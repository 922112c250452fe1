import { Component, type ErrorInfo, type ReactNode } from 'react';
import styles from './boundary.module.css';

/** Past this, the raw JSON shown for a row that failed is cut: the row must stay cheap to draw. */
const MAX_RAW_CHARS = 100_000;

export function rawJsonText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch (err) {
    // Values too deep for the serialiser (or cyclic) still get a message, not a second failure.
    return `(cannot be shown as JSON: ${errorMessage(err)})`;
  }
  return text.length > MAX_RAW_CHARS ? `${text.slice(0, MAX_RAW_CHARS)}\n… ${(text.length - MAX_RAW_CHARS).toLocaleString('en')} more characters` : text;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  try {
    return String(err);
  } catch {
    return 'unknown error';
  }
}

interface RowBoundaryProps {
  children: ReactNode;
  /** What the row draws, shown as plain JSON if drawing it fails. Read only then. */
  raw: () => unknown;
  /** The input line the row comes from. */
  line?: number | undefined;
  /** When this changes (the item was updated), drawing is tried again. */
  resetKey: unknown;
  /** What failed to draw, for the message ("row", "call body", ...). */
  what?: string;
}

interface State {
  error: unknown;
  failedKey: unknown;
  hasError: boolean;
}

/**
 * Contains an error thrown while drawing one item to that item: it says why and shows the item's
 * raw JSON as text, and the rest of the transcript goes on.
 */
export class RowBoundary extends Component<RowBoundaryProps, State> {
  override state: State = { error: null, failedKey: undefined, hasError: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: RowBoundaryProps, state: State): Partial<State> | null {
    // An item that changed since it failed (a message still streaming) gets another try.
    if (state.hasError && state.failedKey !== undefined && state.failedKey !== props.resetKey) return { error: null, hasError: false, failedKey: undefined };
    return null;
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    this.setState({ failedKey: this.props.resetKey });
  }

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    const { line, what = 'row' } = this.props;
    return (
      <div className={styles.failed} role="alert" data-draw-error>
        <div>
          This {what} could not be drawn: {errorMessage(this.state.error)}
          {line !== undefined ? <span className={styles.muted}> · line {line}</span> : null}
        </div>
        <pre className={styles.raw}>{rawJsonText(this.props.raw())}</pre>
      </div>
    );
  }
}

/** The last resort around the whole viewer: a message and a way to try again, never a blank page. */
export class ViewerBoundary extends Component<{ children: ReactNode }, { error: unknown; hasError: boolean }> {
  override state = { error: null as unknown, hasError: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, hasError: true };
  }

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    return (
      <div className={styles.viewerFailed} role="alert" data-draw-error>
        The viewer could not be drawn: {errorMessage(this.state.error)}{' '}
        <button type="button" onClick={() => this.setState({ error: null, hasError: false })}>
          Try again
        </button>
      </div>
    );
  }
}
