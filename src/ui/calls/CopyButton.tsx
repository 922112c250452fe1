import { useState } from 'react';
import styles from './calls.module.css';

/** Copies text to the clipboard; says whether it worked (the clipboard needs a secure page). */
export function CopyButton({ text, label }: { text: () => string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = (): void => {
    const done = (ok: boolean): void => {
      setState(ok ? 'copied' : 'failed');
      setTimeout(() => setState('idle'), 1500);
    };
    if (!navigator.clipboard) {
      done(false);
      return;
    }
    navigator.clipboard.writeText(text()).then(
      () => done(true),
      () => done(false),
    );
  };
  return (
    <button type="button" className={styles.copy} onClick={copy}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
