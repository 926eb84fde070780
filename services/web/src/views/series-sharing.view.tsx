import type { Speech } from '../i18n/messages';
import { seriesText } from '../i18n/series-messages';
import { ConfirmedDelete, Notice, PostForm, type Viewer } from './layout';
import { LinkCreated } from './share.view';

export interface SeriesMember {
  accountId: string;
  displayName: string | null;
  joinedAt: string;
}

/** A series' people: its members (the owner removes them, a member leaves) and the owner's invite button. */
export function SeriesMembers(props: {
  s: Speech;
  viewer: Viewer;
  path: string;
  owner: boolean;
  selfId: string;
  members: SeriesMember[];
  openInvites: number;
}) {
  const { s, viewer, path, owner, members } = props;
  const t = seriesText(s.locale);
  const fill = (text: string, v: Record<string, string>) => text.replace(/\{(\w+)\}/g, (m, k: string) => v[k] ?? m);
  return (
    <section class="card" aria-labelledby="members-h" id="members">
      <h2 id="members-h">{t.members}</h2>
      {members.length === 0 ? <p class="hint">{t.noMembers}</p> : null}
      <ul class="people">
        {members.map((m) => {
          const name = m.displayName ?? t.unnamed;
          return (
            <li key={m.accountId} class="row">
              <span>
                <bdi>{name}</bdi> <span class="hint">{fill(t.joinedOn, { date: s.date(m.joinedAt) })}</span>
              </span>
              {owner ? (
                <PostForm
                  viewer={viewer}
                  action={`${path}/members/${encodeURIComponent(m.accountId)}/remove`}
                  label={fill(t.removeLabel, { name })}
                >
                  <button type="submit" class="danger" aria-label={fill(t.removeLabel, { name })}>
                    {t.remove}
                  </button>
                </PostForm>
              ) : null}
            </li>
          );
        })}
      </ul>
      {owner ? (
        <PostForm viewer={viewer} action={`${path}/invites`} class="stack">
          <p class="hint">{t.inviteHint}</p>
          {props.openInvites > 0 ? <p class="hint">{fill(t.openInvites, { n: s.number(props.openInvites) })}</p> : null}
          <button type="submit">{t.invite}</button>
        </PostForm>
      ) : (
        <PostForm viewer={viewer} action={`${path}/members/${encodeURIComponent(props.selfId)}/remove`} class="stack">
          <p class="hint">{t.leaveHint}</p>
          <button type="submit" class="danger">
            {t.leave}
          </button>
        </PostForm>
      )}
    </section>
  );
}

/** The invite link just made: shown once, to copy and send. */
export function InviteCreatedView({ s, url, back }: { s: Speech; url: string; back: string }) {
  const t = seriesText(s.locale);
  return (
    <LinkCreated
      s={s}
      note={t.inviteCreated}
      label={t.inviteLink}
      field="invite-url"
      url={url}
      back={back}
      backText={t.backToSeries}
    />
  );
}

/** What an invite link opens for a signed-in person: the series' name and a join button. */
export function InviteView({
  s,
  viewer,
  action,
  name,
  alreadyIn,
  seriesUrl,
}: {
  s: Speech;
  viewer: Viewer;
  action: string;
  name: string;
  alreadyIn: boolean;
  seriesUrl: string;
}) {
  const t = seriesText(s.locale);
  return (
    <section class="card stack">
      <p>{t.inviteBody.replace('{name}', name)}</p>
      {alreadyIn ? (
        <>
          <p>{t.alreadyIn}</p>
          <a href={seriesUrl}>{t.openSeries}</a>
        </>
      ) : (
        <PostForm viewer={viewer} action={action}>
          <button type="submit">{t.accept}</button>
        </PostForm>
      )}
    </section>
  );
}

/** The owner's email list of a series: one address per line. */
export function SeriesEmailList({
  s,
  viewer,
  action,
  emails,
  error,
}: {
  s: Speech;
  viewer: Viewer;
  action: string;
  emails: string[];
  error: string | null;
}) {
  const t = seriesText(s.locale);
  return (
    <section class="card" aria-labelledby="email-list-h" id="email-list">
      <h2 id="email-list-h">{t.emailList}</h2>
      <Notice kind="error" text={error} />
      <PostForm viewer={viewer} action={action} class="stack">
        <label>
          {t.emailList}
          <span class="hint">{t.emailListHint}</span>
          <textarea name="emails" rows={4} maxLength={17000} dir="ltr">
            {emails.join('\n')}
          </textarea>
        </label>
        <button type="submit">{t.saveEmailList}</button>
      </PostForm>
    </section>
  );
}

/** Deleting a series: its owner only, with a box to tick first. */
export function DeleteSeries({ s, viewer, action }: { s: Speech; viewer: Viewer; action: string }) {
  const t = seriesText(s.locale);
  return (
    <section class="card" aria-labelledby="delete-series-h" id="delete">
      <h2 id="delete-series-h">{t.deleteSeries}</h2>
      <ConfirmedDelete
        viewer={viewer}
        action={action}
        field="confirm-delete-series"
        hint={t.deleteHint}
        confirm={t.deleteConfirm}
        button={t.deleteSeries}
      />
    </section>
  );
}
