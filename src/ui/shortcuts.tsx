import { useEffect, useRef } from 'preact/hooks';
import { ColumnHeads } from './column-heads.js';
import { SHORTCUTS } from './keyboard.js';

// `?`: every shortcut, in a modal dialog (the browser keeps the focus in it; Esc closes it).

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby="shortcuts-title" onClose={onClose} class="shortcuts">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <ColumnHeads names={['Keys', 'What they do']} />
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}
