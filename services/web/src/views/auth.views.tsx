import type { Messages, Speech } from '../i18n/messages';
import { withLanguage } from '../domain/language-link';
import { Csrf, Notice, type Viewer } from './layout';

/** The message of a sign-in refusal code the gateway sent back (`?error=`), or null. */
export function refusalText(t: Messages, code: string | undefined): string | null {
  const texts: Record<string, string> = {
    SIGN_IN_FAILED: t.signInFailed,
    SIGN_IN_LIMITED: t.signInLimited,
    LINK_INVALID: t.linkInvalid,
    PASSWORD_TOO_SHORT: t.passwordTooShort,
    PASSWORD_TOO_LONG: t.passwordTooLong,
    PASSWORD_COMMON: t.passwordCommon,
    PASSWORD_MISMATCH: t.passwordMismatch,
    EMAIL_TAKEN: t.emailTaken,
    EMAIL_INVALID: t.emailInvalid,
    PASSWORD_WRONG: t.passwordWrong,
  };
  return code ? (texts[code] ?? t.errorGeneric) : null;
}

/**
 * A signed-out form's language: the gateway sends the browser back to the page in it (a refusal,
 * "sent"); a signed-in person's language is their account's.
 */
function PageLanguage({ s, viewer }: { s: Speech; viewer: Viewer }) {
  return viewer.signedIn ? null : <input type="hidden" name="lang" value={s.locale} />;
}

/** A new password, twice, with its rule (the gateway checks both). */
export function NewPasswordFields({ s }: { s: Speech }) {
  return (
    <>
      <label>
        {s.t.newPassword}
        <input
          type="password"
          name="password"
          autocomplete="new-password"
          required
          minLength={10}
          maxLength={200}
          aria-describedby="password-hint"
        />
      </label>
      <p id="password-hint" class="hint">
        {s.t.passwordHint}
      </p>
      <label>
        {s.t.confirmPassword}
        <input type="password" name="confirm" autocomplete="new-password" required minLength={10} maxLength={200} />
      </label>
    </>
  );
}

export function SignInView({
  s,
  base,
  viewer,
  error,
  next,
}: {
  s: Speech;
  base: string;
  viewer: Viewer;
  error: string | null;
  next: string;
}) {
  return (
    <>
      <Notice kind="error" text={error} />
      <form method="post" action={`${base}/sign-in`} class="card stack" data-keep-email>
        <Csrf viewer={viewer} />
        <PageLanguage s={s} viewer={viewer} />
        <input type="hidden" name="next" value={next} />
        <label>
          {s.t.email}
          <input type="email" name="email" autocomplete="username" required maxLength={320} dir="ltr" />
        </label>
        <label>
          {s.t.password}
          <input type="password" name="password" autocomplete="current-password" required maxLength={1000} />
        </label>
        <button type="submit">{s.t.signInButton}</button>
      </form>
      <p>
        <a href={viewer.signedIn ? `${base}/reset` : withLanguage(`${base}/reset`, s.locale)}>{s.t.forgotPassword}</a>
      </p>
    </>
  );
}

/** The form of an invite or a reset link: a new password, twice. */
export function SetPasswordView(props: {
  s: Speech;
  base: string;
  /** A browser signed in (to this account or another) sends its session's CSRF token with the form. */
  viewer: Viewer;
  action: string;
  usable: boolean;
  /** The account has no email yet (an invite made without one): the person gives the one they sign in with. */
  askEmail?: boolean;
  error: string | null;
}) {
  const { s } = props;
  if (!props.usable) {
    return (
      <>
        <Notice kind="error" text={s.t.linkInvalid} />
        <p>
          <a href={`${props.base}/sign-in`}>{s.t.backToSignIn}</a>
        </p>
      </>
    );
  }
  return (
    <>
      <Notice kind="error" text={props.error} />
      <form method="post" action={props.action} class="card stack">
        <Csrf viewer={props.viewer} />
        <PageLanguage s={s} viewer={props.viewer} />
        {props.askEmail ? (
          <label>
            {s.t.email}
            <input type="email" name="email" autocomplete="username" required maxLength={320} dir="ltr" />
          </label>
        ) : null}
        <NewPasswordFields s={s} />
        <button type="submit">{s.t.setPasswordButton}</button>
      </form>
    </>
  );
}

/** `sent`: the link is on its way (to an account's email, if it is one), or this server cannot email at all. */
export function ResetRequestView({
  s,
  base,
  viewer,
  sent,
}: {
  s: Speech;
  base: string;
  viewer: Viewer;
  sent: 'sent' | 'no-mail' | null;
}) {
  return (
    <>
      <Notice kind="ok" text={sent === 'sent' ? s.t.resetSent : null} />
      <Notice kind="error" text={sent === 'no-mail' ? s.t.resetNoMail : null} />
      <p>{s.t.resetIntro}</p>
      <form method="post" action={`${base}/reset`} class="card stack">
        <Csrf viewer={viewer} />
        <PageLanguage s={s} viewer={viewer} />
        <label>
          {s.t.email}
          <input type="email" name="email" autocomplete="username" required maxLength={320} dir="ltr" />
        </label>
        <button type="submit">{s.t.resetButton}</button>
      </form>
      <p>
        <a href={`${base}/sign-in`}>{s.t.backToSignIn}</a>
      </p>
    </>
  );
}
