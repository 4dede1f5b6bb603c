import type { KeyAction } from './keyboard.js';

// What the page (`app.tsx`) gives each screen it shows: the API, the way back to the queues, the
// way out when the API no longer takes the tab's token, the page's live region and its keys.

/** What a screen does with a key: whether it took it. */
export type KeyHandler = (action: KeyAction) => boolean;

export interface ScreenProps<Api> {
  api: Api;
  /** Back to the queues. */
  onBack(): void;
  /** Signs the tab out, saying why: the API refused its token. */
  onSignInRefused(message: string): void;
  /** Says a change in the page's live region. */
  onAnnounce(message: string): void;
  /** Registers what this screen does with a key, while it is on screen. */
  setKeys(handler: KeyHandler | null): void;
}
