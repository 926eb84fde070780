import { SCOPES, SCOPE_SWITCH, type Scope, type Switch } from '@mm/contract';
import type { Speech } from '../i18n/messages';
import { Notice, PostForm, type Viewer } from './layout';

export interface TokenItem {
  id: string;
  name: string;
  scopes: string[];
  dailyMinuteCap: number | null;
  expiresAt: string | null;
  createdAt: string;
}

/** What the form had when it was refused, so the person does not type it again. */
export interface TokenDraft {
  name: string;
  scopes: string[];
  expiresInDays: string;
  dailyMinuteCap: string;
}

export const EMPTY_DRAFT: TokenDraft = {
  name: '',
  scopes: ['recordings:read'],
  expiresInDays: '90',
  dailyMinuteCap: '',
};

export interface TokensPageData {
  developerMode: boolean;
  switches: Record<Switch, boolean>;
  tokens: TokenItem[];
  draft: TokenDraft;
  error: string | null;
  notice: string | null;
  /** A revoke that did nothing (not confirmed, or the token was not found), said above the list. */
  listError: string | null;
  /** The value of the token just made: shown this once. */
  created: { name: string; value: string } | null;
}

const GROUPS = [
  { key: 'groupMeetings', prefix: 'recordings:' },
  { key: 'groupSeries', prefix: 'series:' },
  { key: 'groupAccount', prefix: 'account:' },
] as const;

function ScopeBox({
  s,
  scope,
  draft,
  switches,
}: {
  s: Speech;
  scope: Scope;
  draft: TokenDraft;
  switches: Record<Switch, boolean>;
}) {
  const sw = SCOPE_SWITCH[scope];
  const off = sw !== undefined && !switches[sw];
  const id = `scope-${scope.replace(':', '-')}`;
  return (
    <div class="check">
      <input
        type="checkbox"
        id={id}
        name="scopes"
        value={scope}
        checked={draft.scopes.includes(scope)}
        aria-describedby={off ? `${id}-off` : undefined}
      />
      <label for={id}>
        <code>{scope}</code>
      </label>
      {off ? <span id={`${id}-off`} class="hint">{` (${s.t.scopeUnavailableNote})`}</span> : null}
    </div>
  );
}

export function TokensView({ s, base, viewer, d }: { s: Speech; base: string; viewer: Viewer; d: TokensPageData }) {
  const expiries = [
    ['30', s.t.expiry30],
    ['90', s.t.expiry90],
    ['365', s.t.expiry365],
    ['never', s.t.expiryNever],
  ] as const;
  return (
    <>
      <p>{s.t.tokensIntro}</p>
      <section aria-labelledby="devmode" class="card">
        <h2 id="devmode">{s.t.developerMode}</h2>
        <p role="status">{d.developerMode ? s.t.developerModeOn : s.t.developerModeOff}</p>
        <PostForm viewer={viewer} action={`${base}/developer-mode`}>
          <input type="hidden" name="on" value={d.developerMode ? 'false' : 'true'} />
          <button type="submit">{d.developerMode ? s.t.turnOff : s.t.turnOn}</button>
        </PostForm>
      </section>
      <Notice kind="ok" text={d.notice} />
      {d.created ? (
        <section class="card created" aria-labelledby="created" data-sent-once>
          <h2 id="created">{s.t.tokenCreated}</h2>
          <p>
            <bdi>{d.created.name}</bdi>
          </p>
          <div class="copyrow">
            <input
              id="new-token"
              type="text"
              readOnly
              value={d.created.value}
              dir="ltr"
              aria-labelledby="created"
              spellcheck={false}
            />
            <button type="button" data-copy="new-token" data-copied={s.t.copied} hidden>
              {s.t.copy}
            </button>
          </div>
        </section>
      ) : null}
      <section aria-labelledby="new" class="card">
        <h2 id="new">{s.t.newToken}</h2>
        <Notice kind="error" text={d.error} />
        <PostForm viewer={viewer} action={`${base}/tokens`} class="stack">
          <label>
            {s.t.tokenName}
            <input type="text" name="name" required maxLength={100} value={d.draft.name} />
          </label>
          <fieldset>
            <legend>{s.t.scopes}</legend>
            {GROUPS.map((g) => (
              <fieldset key={g.key} class="group">
                <legend>{s.t[g.key]}</legend>
                {SCOPES.filter((x) => x.startsWith(g.prefix)).map((scope) => (
                  <ScopeBox key={scope} s={s} scope={scope} draft={d.draft} switches={d.switches} />
                ))}
              </fieldset>
            ))}
          </fieldset>
          <label>
            {s.t.expiry}
            <select name="expiresInDays">
              {expiries.map(([v, label]) => (
                <option key={v} value={v} selected={d.draft.expiresInDays === v}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {s.t.dailyCap}
            <input
              type="number"
              name="dailyMinuteCap"
              min={1}
              max={100000}
              step={1}
              inputMode="numeric"
              value={d.draft.dailyMinuteCap}
              aria-describedby="cap-hint"
              dir="ltr"
            />
          </label>
          <p id="cap-hint" class="hint">
            {s.t.dailyCapHint}
          </p>
          <button type="submit">{s.t.createToken}</button>
        </PostForm>
      </section>
      <section aria-labelledby="list">
        <h2 id="list">{s.t.yourTokens}</h2>
        <Notice kind="error" text={d.listError} />
        {d.tokens.length === 0 ? <p>{s.t.noTokens}</p> : null}
        {d.tokens.length ? (
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{s.t.tokenName}</th>
                  <th scope="col">{s.t.scopes}</th>
                  <th scope="col">{s.t.cap}</th>
                  <th scope="col">{s.t.expiry}</th>
                  <th scope="col">{s.t.created}</th>
                  <td />
                </tr>
              </thead>
              <tbody>
                {d.tokens.map((tok) => (
                  <tr key={tok.id}>
                    <th scope="row">
                      <bdi>{tok.name}</bdi>
                    </th>
                    <td dir="ltr">{tok.scopes.join(', ')}</td>
                    <td>{tok.dailyMinuteCap === null ? s.t.noCap : s.number(tok.dailyMinuteCap)}</td>
                    <td>{tok.expiresAt ? s.date(tok.expiresAt) : s.t.never}</td>
                    <td>{s.date(tok.createdAt)}</td>
                    <td>
                      <PostForm
                        viewer={viewer}
                        action={`${base}/tokens/${encodeURIComponent(tok.id)}/revoke`}
                        class="inline revoke"
                      >
                        <span class="check">
                          <input
                            type="checkbox"
                            id={`revoke-${tok.id}`}
                            name="confirm"
                            value="yes"
                            required
                            aria-label={`${s.t.revokeSure}: ${tok.name}`}
                          />
                          <label for={`revoke-${tok.id}`}>{s.t.revokeSure}</label>
                        </span>
                        <button type="submit" class="danger" aria-label={`${s.t.revoke}: ${tok.name}`}>
                          {s.t.revoke}
                        </button>
                      </PostForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </>
  );
}
