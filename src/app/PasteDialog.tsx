// "Paste…": a session's JSONL (or a JSON array) pasted into a dialog.
import { useEffect, useRef, useState } from 'react';

export function PasteDialog({ onClose, onLoad }: { onClose: () => void; onLoad: (text: string) => void }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="loupe-app__dialog" onClose={onClose} aria-label="Paste a session">
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) onLoad(text);
        }}
      >
        <label htmlFor="loupe-paste">Paste JSONL (one record a line) or a JSON array</label>
        <textarea id="loupe-paste" value={text} onChange={(e) => setText(e.target.value)} rows={14} autoFocus />
        <div className="loupe-app__dialogButtons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={!text.trim()}>
            Load
          </button>
        </div>
      </form>
    </dialog>
  );
}
