import { ASK_FOR_A_LINK, refusedSignInWords } from './sign-in.js';

// The page without a sign-in: why (a refused link, in a reviewer's words) and whom to ask.

export function SignedOut({ refused }: { refused: string | null }) {
  return (
    <main class="signed-out" aria-labelledby="signin-title">
      <h1 id="signin-title">{refused ? 'Your sign-in was refused' : 'Sign in to review'}</h1>
      {refused ? (
        <div role="alert" class="refusal" data-testid="sign-in-refused">
          <p>{refusedSignInWords(refused)}</p>
          <p>{ASK_FOR_A_LINK}, and open it in this browser.</p>
        </div>
      ) : (
        <p data-testid="signed-out">
          This page signs you in from a link made for you. {ASK_FOR_A_LINK}.
        </p>
      )}
    </main>
  );
}
