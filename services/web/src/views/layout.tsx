import type { ComponentChildren } from 'preact';
import { withLanguage } from '../domain/language-link';
import { renderToString } from 'preact-render-to-string';
import { CSRF_FIELD } from '@mm/http';
import type { Speech } from '../i18n/messages';
import { meetingText } from '../i18n/meeting-messages';
import { uploadText } from '../i18n/upload-messages';

/** Who is looking at a page: signed in (with the session's CSRF token for forms) or not. */
export interface Viewer {
  signedIn: boolean;
  displayName: string | null;
  csrf: string | null;
}

export interface PageProps {
  s: Speech;
  viewer: Viewer;
  /** The app's path prefix (`/app`). */
  base: string;
  title: string;
  /** The path of this page (the language switch comes back to it). */
  here: string;
  children: ComponentChildren;
}

/** The CSRF field every form of a signed-in page carries (the gateway checks it). */
export function Csrf({ viewer }: { viewer: Viewer }) {
  return viewer.csrf ? <input type="hidden" name={CSRF_FIELD} value={viewer.csrf} /> : null;
}

/** A form that changes something: POST, with the CSRF field. */
export function PostForm(props: {
  viewer: Viewer;
  action: string;
  class?: string;
  label?: string;
  children: ComponentChildren;
}) {
  return (
    <form method="post" action={props.action} class={props.class} aria-label={props.label}>
      <Csrf viewer={props.viewer} />
      {props.children}
    </form>
  );
}

/** A delete form: the box to tick first (the browser will not send it unticked; the app checks too), then the button. */
export function ConfirmedDelete(props: {
  viewer: Viewer;
  action: string;
  field: string;
  hint: string;
  confirm: string;
  button: string;
}) {
  return (
    <PostForm viewer={props.viewer} action={props.action} class="stack">
      <p class="hint">{props.hint}</p>
      <div class="check">
        <input type="checkbox" id={props.field} name="confirm" value="yes" required />
        <label for={props.field}>{props.confirm}</label>
      </div>
      <button type="submit" class="danger">
        {props.button}
      </button>
    </PostForm>
  );
}

/** An error or notice above a form, read out by screen readers when it appears. */
export function Notice({ kind, text }: { kind: 'error' | 'ok'; text: string | null }) {
  if (!text) return null;
  return (
    <p class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

/** Whether the page at `here` (its address, query included) is the nav entry `href`'s or one under it (home: itself only). */
function isHere(here: string, base: string, href: string): boolean {
  const at = here.split(/[?#]/)[0];
  return href === `${base}/` ? at === href || at === base : at === href || at.startsWith(`${href}/`);
}

function LanguageSwitch({ s, viewer, base, here }: Pick<PageProps, 's' | 'viewer' | 'base' | 'here'>) {
  const other = s.t.switchToOtherLang;
  if (viewer.signedIn) {
    return (
      <PostForm viewer={viewer} action={`${base}/language`} class="inline" label={s.t.language}>
        <input type="hidden" name="locale" value={other} />
        <input type="hidden" name="back" value={here} />
        <button type="submit" class="link" lang={other}>
          {s.t.switchToOther}
        </button>
      </PostForm>
    );
  }
  return (
    <a href={withLanguage(here, other)} lang={other} hreflang={other}>
      {s.t.switchToOther}
    </a>
  );
}

function Layout(props: PageProps) {
  const { s, viewer, base } = props;
  return (
    <html lang={s.locale} dir={s.dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${s.t.appName}`}</title>
        {/* No icon: without this line a browser asks /favicon.ico, which answers 404 (an error in its console). */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={`${base}/assets/app.css`} />
        <script src={`${base}/assets/app.js`} defer />
      </head>
      <body>
        <a class="skip" href="#main">
          {s.t.skipToContent}
        </a>
        <header class="top">
          <a class="brand" href={`${base}/`}>
            {s.t.appName}
          </a>
          {viewer.signedIn ? (
            <nav aria-label={s.t.navMain}>
              {(
                [
                  [`${base}/`, s.t.navHome],
                  [`${base}/meetings`, meetingText(s.locale).navMeetings],
                  [`${base}/upload`, uploadText(s.locale).navUpload],
                  [`${base}/series`, meetingText(s.locale).navSeries],
                  [`${base}/trash`, meetingText(s.locale).navTrash],
                  [`${base}/tokens`, s.t.navTokens],
                  [`${base}/wallet`, s.t.navWallet],
                  [`${base}/settings`, s.t.navSettings],
                  [`${base}/keyterms`, s.t.navKeyterms],
                  [`${base}/memory`, s.t.navMemory],
                  [`${base}/profile`, s.t.navProfile],
                  [`${base}/sessions`, s.t.navSessions],
                ] as const
              ).map(([href, label]) => (
                <a key={href} href={href} aria-current={isHere(props.here, base, href) ? 'page' : undefined}>
                  {label}
                </a>
              ))}
              <PostForm viewer={viewer} action={`${base}/sign-out`} class="inline">
                <button type="submit" class="link">
                  {s.t.signOut}
                </button>
              </PostForm>
            </nav>
          ) : null}
          <div class="lang">
            <LanguageSwitch s={s} viewer={viewer} base={base} here={props.here} />
          </div>
        </header>
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A whole page as HTML text. */
export function renderPage(props: Omit<PageProps, 'children'>, body: ComponentChildren): string {
  return `<!doctype html>${renderToString(<Layout {...props}>{body}</Layout>)}`;
}
