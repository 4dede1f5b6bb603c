// Sign-in without a long-lived secret: the link a reviewer is given (`evalflow reviewers link`)
// carries a short-lived token in its fragment (`/ui/#token=…`), which browsers never send to a
// server. The page takes it from there, keeps it in this tab's session storage only, and removes
// it from the address bar, so it is neither in the history nor in a copied URL.

const KEY = 'evalflow.reviewer-token';
/** Where a tab keeps that its link was an admin's (`as=admin`). */
const ADMIN_KEY = 'evalflow.signed-in-as-admin';

/** A fragment's parameters (`#token=…&as=admin`), with or without its `#`. */
const paramsOf = (hash: string) => new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);

/** The token a fragment carries (`#token=…`, among other parameters), or null. */
export function tokenFromFragment(hash: string): string | null {
  const token = paramsOf(hash).get('token')?.trim();
  return token ? token : null;
}

/** The fragment without its token and `as` (other parameters stay), `''` when nothing is left. */
export function fragmentWithoutToken(hash: string): string {
  const params = paramsOf(hash);
  params.delete('token');
  params.delete('as');
  const rest = params.toString();
  return rest === '' ? '' : `#${rest}`;
}

/** Where a tab keeps its token: the browser's session storage, or memory in a test. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Who the tab is signed in as: the token, and whether its link was an admin's. */
export interface SignedIn {
  token: string;
  admin: boolean;
}

/**
 * The sign-in of this tab: a link's (kept, and removed from the address through
 * `replaceFragment`), else the one kept earlier in this tab, else null.
 */
export function takeToken(
  hash: string,
  storage: TokenStorage,
  replaceFragment: (fragment: string) => void,
): SignedIn | null {
  const fromLink = tokenFromFragment(hash);
  if (fromLink !== null) {
    const admin = paramsOf(hash).get('as') === 'admin';
    storage.setItem(KEY, fromLink);
    if (admin) storage.setItem(ADMIN_KEY, 'yes');
    else storage.removeItem(ADMIN_KEY);
    replaceFragment(fragmentWithoutToken(hash));
    return { token: fromLink, admin };
  }
  const kept = storage.getItem(KEY);
  return kept === null ? null : { token: kept, admin: storage.getItem(ADMIN_KEY) === 'yes' };
}

/** Forgets the tab's token (signing out, or after the API refused it). */
export function forgetToken(storage: TokenStorage): void {
  storage.removeItem(KEY);
  storage.removeItem(ADMIN_KEY);
}

/** Whom a reviewer asks for a link; the admin's command is in the README's workbench section. */
export const ASK_FOR_A_LINK =
  'Ask the person who runs evalflow for your team for a new sign-in link';

/**
 * What a refused sign-in means to a reviewer, in their words, from the API's reason (the
 * credential expired, was revoked, or was never a good one).
 */
export function refusedSignInWords(reason: string): string {
  if (/expired/i.test(reason))
    return 'Your sign-in link has expired: links work for a limited time.';
  if (/revoked/i.test(reason)) return 'Your sign-in link has been withdrawn.';
  return 'This sign-in link is not valid: it may be incomplete, mistyped or replaced by a newer one.';
}
