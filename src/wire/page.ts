// The reviewers' page as the API serves it and the CLI points to it: its path, and a sign-in
// link into it (the token in the URL's fragment, which a browser never sends to a server), with
// how long such a link may live.

/** Where the page is served. */
export const UI_PATH = '/ui/';

export const SIGN_IN_SECONDS = { min: 60, max: 24 * 60 * 60, default: 8 * 60 * 60 } as const;

/**
 * The page's path with a token in its fragment; an admin's link also says `as=admin`, so the page
 * offers the admin's actions (the API decides who may take them, from the token).
 */
export const signInPath = (token: string, as?: 'admin') =>
  `${UI_PATH}#token=${token}${as === 'admin' ? '&as=admin' : ''}`;
