// The toolbar's sharing controls: read the session redacted, and export it as a file.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import styles from '../SessionView.module.css';
import type { ShareFormat } from '../../share/exportShown';
import { downloadBlob } from './download';

export type { ShareFormat };

export interface SharingProps {
  /** Whether the session is read redacted. */
  redact: boolean;
  /** Reads the source again, redacted or not; absent when it cannot be read again (a stream). */
  onRedactChange?: (redact: boolean) => void;
  /** The session as shown (filter applied, redacted if the view is) as a file; absent when it cannot be made. */
  exportAs?: (format: ShareFormat) => Promise<{ blob: Blob; name: string }>;
  /** Whether the html export is offered: it needs the export viewer, which the embedder serves. */
  htmlExport?: boolean;
  /** Whether "Redact secrets" is shown at all (an html export's page has no redaction); default true. */
  offerRedaction?: boolean;
}

const FORMATS: { format: ShareFormat; label: string }[] = [
  { format: 'jsonl', label: 'Records (.jsonl)' },
  { format: 'md', label: 'Summary (.md)' },
  { format: 'html', label: 'Page with viewer (.html)' },
];

export function SharingTools({ redact, onRedactChange, exportAs, htmlExport = false, offerRedaction = true }: SharingProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // An html export fetches the export viewer and re-reads the source: it can take a moment.
  const [busy, setBusy] = useState<ShareFormat | null>(null);
  const formats = htmlExport ? FORMATS : FORMATS.filter(({ format }) => format !== 'html');
  const anchorRef = useRef<HTMLSpanElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuItems = (): HTMLButtonElement[] => [...(anchorRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  // An open menu takes the keyboard (its first item is focused) and closes when the person
  // clicks or tabs anywhere else, as a menu button's menu does.
  useEffect(() => {
    if (!open) return;
    menuItems()[0]?.focus();
    const closeIfOutside = (e: Event): void => {
      if (e.target instanceof Node && anchorRef.current?.contains(e.target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', closeIfOutside);
    document.addEventListener('focusin', closeIfOutside);
    return () => {
      document.removeEventListener('pointerdown', closeIfOutside);
      document.removeEventListener('focusin', closeIfOutside);
    };
  }, [open]);
  const onMenuKey = (e: KeyboardEvent<HTMLSpanElement>): void => {
    const items = menuItems();
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1 : null;
    if (next !== null) {
      items[(next + items.length) % items.length]?.focus();
    } else if (e.key === 'Escape') {
      setOpen(false);
      toggleRef.current?.focus();
    } else {
      return;
    }
    // Also keeps the viewer's own keys (Esc closes rows, Home/End move its cursor) out of the menu.
    e.preventDefault();
    e.stopPropagation();
  };
  const download = async (format: ShareFormat): Promise<void> => {
    setOpen(false);
    if (!exportAs) return;
    try {
      setError(null);
      setBusy(format);
      const { blob, name } = await exportAs(format);
      downloadBlob(blob, name);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      {offerRedaction ? (
        <button
          type="button"
          className={styles.button}
          aria-pressed={redact}
          disabled={!onRedactChange}
          title="Read the session again with every secret found replaced by its kind (e.g. ‹aws-access-key›)"
          onClick={() => onRedactChange?.(!redact)}
        >
          Redact secrets
        </button>
      ) : null}
      {exportAs ? (
        <span className={styles.menuAnchor} ref={anchorRef}>
          <button ref={toggleRef} type="button" className={styles.button} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            Export ▾
          </button>
          {open ? (
            <span role="menu" aria-label="Export as" className={styles.menu} onKeyDown={onMenuKey}>
              {formats.map(({ format, label }) => (
                <button key={format} type="button" role="menuitem" tabIndex={-1} className={styles.menuItem} data-export={format} onClick={() => void download(format)}>
                  {label}
                  {redact ? ', redacted' : ''}
                </button>
              ))}
            </span>
          ) : null}
        </span>
      ) : null}
      {busy !== null ? (
        <span role="status" className={styles.muted}>
          Exporting .{busy}…
        </span>
      ) : null}
      {error !== null ? (
        <span role="alert" className={styles.muted}>
          Export failed: {error}
        </span>
      ) : null}
    </>
  );
}
