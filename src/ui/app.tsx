import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { EvaluatorsPage } from './evaluators-page.js';
import { keyAction } from './keyboard.js';
import { MyReviews } from './my-reviews.js';
import { QueueList } from './queue-list.js';
import { ReviewScreen } from './review-screen.js';
import type { KeyHandler, ScreenProps } from './screen-props.js';
import { ShortcutsDialog } from './shortcuts.js';
import { forgetToken, type SignedIn, takeToken } from './sign-in.js';
import { SignedOut } from './signed-out.js';
import { useStateNow } from './state-now.js';
import { type WorkbenchApi, workbenchApi } from './workbench-api.js';

// The reviewers' page: signed in from a link's token, the queues, one queue's items one at a
// time, and the reviewer's own verdicts. Keys are read once, here, and handed to the screen on
// view; `?` shows them all.

type Screen =
  | { name: 'queues' }
  | { name: 'evaluators' }
  | { name: 'review'; queueId: string }
  | { name: 'mine'; queueId: string };

export function App() {
  const [signedIn, setSignedIn] = useState(fromAddress);
  const [refused, setRefused] = useState<string | null>(null);
  const [screen, setScreen] = useState<Screen>({ name: 'queues' });
  const [help, setHelp, helpOpen] = useStateNow(false);
  const [announcement, setAnnouncement] = useState('');
  const keys = useRef<KeyHandler | null>(null);
  const token = signedIn?.token;
  const api = useMemo(() => (token ? workbenchApi(location.origin, token) : null), [token]);
  // A sign-in link opened in this tab while the page is open is a new fragment, not a new page.
  useEffect(() => {
    const onLink = () => {
      if (!location.hash.includes('token=')) return;
      setRefused(null);
      setScreen({ name: 'queues' });
      setSignedIn(fromAddress());
    };
    window.addEventListener('hashchange', onLink);
    return () => window.removeEventListener('hashchange', onLink);
  }, []);

  // An announcement belongs to the moment it was made: the next screen starts without it (the
  // live region stays, so a screen reader has read it once and reads nothing again).
  useEffect(() => setAnnouncement(''), [screen]);

  const setKeys = useCallback((handler: KeyHandler | null) => {
    keys.current = handler;
  }, []);
  const onSignInRefused = useCallback((message: string) => {
    forgetToken(sessionStorage);
    setSignedIn(null);
    setRefused(message);
  }, []);
  const toQueues = useCallback(() => setScreen({ name: 'queues' }), []);
  const loadQueues = useCallback(() => api?.queues() ?? Promise.resolve([]), [api]);

  useShortcutKeys(helpOpen, setHelp, keys);

  if (!api) return <SignedOut refused={refused} />;
  // What every screen but the queues' list is given.
  const screenProps: ScreenProps<WorkbenchApi> = {
    api,
    onBack: toQueues,
    onSignInRefused,
    onAnnounce: setAnnouncement,
    setKeys,
  };

  return (
    <div class="page">
      <TopBar
        evaluators={screen.name === 'evaluators'}
        announcement={announcement}
        onQueues={toQueues}
        onEvaluators={() => setScreen({ name: 'evaluators' })}
        onHelp={() => setHelp(true)}
        onSignOut={() => {
          forgetToken(sessionStorage);
          setSignedIn(null);
          setRefused(null);
        }}
      />
      {screen.name === 'queues' && (
        <QueueList
          load={loadQueues}
          onOpen={(queueId) => setScreen({ name: 'review', queueId })}
          onMyReviews={(queueId) => setScreen({ name: 'mine', queueId })}
          onSignInRefused={onSignInRefused}
          setKeys={setKeys}
        />
      )}
      {screen.name === 'evaluators' && (
        <EvaluatorsPage {...screenProps} storage={localStorage} admin={signedIn?.admin ?? false} />
      )}
      {(screen.name === 'review' || screen.name === 'mine') && (
        <QueueScreen {...screenProps} screen={screen} />
      )}
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}

/**
 * The page's keys: `?` opens the shortcuts, Esc and `?` close them, and any other key goes to the
 * screen's handler (`keys`), which says whether it took it.
 */
function useShortcutKeys(
  helpOpen: { readonly current: boolean },
  setHelp: (open: boolean) => void,
  keys: { readonly current: KeyHandler | null },
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = keyAction({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        focus: focusKind(document.activeElement),
      });
      if (action === null) return;
      if (helpOpen.current) {
        // Esc and `?` close it here, at once: left to the dialog, Esc would close it by an event
        // that comes later, and an Esc pressed before that would be taken for the dialog's too.
        if (action.type === 'help' || action.type === 'escape') {
          setHelp(false);
          event.preventDefault();
        }
        return;
      }
      if (action.type === 'help') {
        setHelp(true);
        event.preventDefault();
        return;
      }
      if (keys.current?.(action)) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [setHelp]);
}

/** The top bar: the pages, the live announcement, the shortcuts and signing out. */
function TopBar(props: {
  evaluators: boolean;
  announcement: string;
  onQueues(): void;
  onEvaluators(): void;
  onHelp(): void;
  onSignOut(): void;
}) {
  return (
    <header class="top">
      <span class="brand">evalflow · review</span>
      <nav aria-label="Pages" class="pages">
        <button
          type="button"
          aria-current={props.evaluators ? undefined : 'page'}
          onClick={props.onQueues}
        >
          Queues
        </button>
        <button
          type="button"
          aria-current={props.evaluators ? 'page' : undefined}
          onClick={props.onEvaluators}
          data-testid="to-evaluators"
        >
          Evaluators
        </button>
      </nav>
      <p role="status" aria-live="polite" class="announcement" data-testid="announcement">
        {props.announcement}
      </p>
      <button type="button" onClick={props.onHelp} aria-keyshortcuts="?">
        Shortcuts <kbd>?</kbd>
      </button>
      <button type="button" onClick={props.onSignOut}>
        Sign out
      </button>
    </header>
  );
}

/** One queue's screen: its review, or the reviewer's own verdicts in it. */
function QueueScreen(
  props: ScreenProps<WorkbenchApi> & { screen: Extract<Screen, { name: 'review' | 'mine' }> },
) {
  const { screen, ...rest } = props;
  const Chosen = screen.name === 'review' ? ReviewScreen : MyReviews;
  return <Chosen key={screen.queueId} queueId={screen.queueId} {...rest} />;
}

/** The link's token (then gone from the address bar), else the one this tab kept. */
function fromAddress(): SignedIn | null {
  return takeToken(location.hash, sessionStorage, (fragment) =>
    history.replaceState(null, '', `${location.pathname}${location.search}${fragment}`),
  );
}

function focusKind(element: Element | null): 'line' | 'text' | 'other' {
  if (element instanceof HTMLTextAreaElement) return 'text';
  if (element instanceof HTMLInputElement) {
    return ['radio', 'checkbox', 'button', 'submit'].includes(element.type) ? 'other' : 'line';
  }
  return 'other';
}
