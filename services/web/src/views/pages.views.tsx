import { messageOf, type Messages, type Speech } from '../i18n/messages';
import { Notice, PostForm, type Viewer } from './layout';

export function HomeView({ s, base, viewer }: { s: Speech; base: string; viewer: Viewer }) {
  return (
    <>
      <p>{s.f('homeHello', { name: viewer.displayName ?? '—' })}</p>
      <p>{s.t.homeIntro}</p>
      <ul class="tiles">
        <li>
          <a href={`${base}/tokens`}>{s.t.navTokens}</a>
        </li>
        <li>
          <a href={`${base}/sessions`}>{s.t.navSessions}</a>
        </li>
      </ul>
    </>
  );
}

export interface SessionItem {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

export function SessionsView({
  s,
  base,
  viewer,
  sessions,
  done,
}: {
  s: Speech;
  base: string;
  viewer: Viewer;
  sessions: SessionItem[];
  done: boolean;
}) {
  return (
    <>
      <Notice kind="ok" text={done ? s.t.signedOutOthers : null} />
      <p>{s.t.sessionsIntro}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{s.t.device}</th>
            <th scope="col">{s.t.lastSeen}</th>
            <th scope="col">{s.t.created}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((x) => (
            <tr key={x.id}>
              <td>
                <bdi>{x.device}</bdi>
                {x.current ? <strong class="tag">{s.t.thisSession}</strong> : null}
              </td>
              <td>{s.date(x.lastSeenAt)}</td>
              <td>{s.date(x.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <PostForm viewer={viewer} action={`${base}/sessions/sign-out-others`}>
        <button type="submit">{s.t.signOutOthers}</button>
      </PostForm>
    </>
  );
}

/** A meeting's status as the recordings service answers it (the fields this page reads). */
export interface MeetingStatus {
  id: string;
  status: string;
  title: string | null;
  naming: { url: string; deadline: string | null } | null;
}

export function statusLabel(t: Messages, status: string): string {
  return messageOf(t, `status${status}`) ?? status;
}

export function NotFoundView({ s, base }: { s: Speech; base: string }) {
  return (
    <>
      <p>{s.t.notFound}</p>
      <p>
        <a href={`${base}/`}>{s.t.navHome}</a>
      </p>
    </>
  );
}
