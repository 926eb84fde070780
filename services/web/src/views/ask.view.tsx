import type { Speech } from '../i18n/messages';
import type { AskMessages } from '../i18n/ask-messages';
import { Notice, PostForm, type Viewer } from './layout';
import { clockOf, speakerName, type Speaker, type Turn } from './meeting-parts';

/** An Ask answer as the contract gives it. */
export interface AskAnswer {
  answer: string;
  citations: { startMs: number; speaker: string | null; recordingId?: string }[];
  minutes: number;
  refused: boolean;
}
export interface EarlierAsk {
  id: string;
  question: string;
  answer: AskAnswer;
  askedAt: string;
}

/** What the Ask tab of a meeting or a series shows. */
export interface AskPanel {
  /** The price of a question (the quote), or null when asking is not possible now (`blocked` says why). */
  quote: { minutes: number; meetingCount?: number } | null;
  blocked: string | null;
  error: string | null;
  items: EarlierAsk[];
  /** The Idempotency-Key of the next question (a form sent twice asks once, charged once). */
  key: string;
  action: string;
  /** A meeting's: its turns and speakers (to show a cited turn) and whether its player is on the page. */
  turns: Turn[];
  speakers: Speaker[];
  audio: boolean;
  /** A series': where each cited meeting opens, and its title. */
  meetings?: Record<string, { title: string; url: string }>;
}

/** A citation: seeks the page's player (meeting with audio), else opens the cited moment. */
function Citation({
  s,
  a,
  p,
  n,
  c,
}: {
  s: Speech;
  a: AskMessages;
  p: AskPanel;
  n: number;
  c: AskAnswer['citations'][number];
}) {
  const time = clockOf(s, c.startMs);
  if (!c.recordingId && p.audio) {
    return (
      <button
        type="button"
        class="link cite"
        data-seek={c.startMs}
        aria-label={a.f('citation', { n: s.number(n), time })}
      >
        [{s.number(n)}]
      </button>
    );
  }
  const meeting = c.recordingId ? p.meetings?.[c.recordingId] : undefined;
  const href = c.recordingId ? `${meeting?.url ?? ''}?at=${c.startMs}` : `?at=${c.startMs}`;
  return (
    <a class="cite" href={href} aria-label={a.f('openTurn', { n: s.number(n), time })}>
      [{s.number(n)}]
    </a>
  );
}

/** The answer's text with each `[n]` marker made a citation. */
function AnswerText({ s, a, p, answer }: { s: Speech; a: AskMessages; p: AskPanel; answer: AskAnswer }) {
  const pieces = answer.answer.split(/(\[\d+\])/);
  return (
    <p class="answer">
      {pieces.map((piece, i) => {
        const m = /^\[(\d+)\]$/.exec(piece);
        const c = m ? answer.citations[Number(m[1]) - 1] : undefined;
        return c ? <Citation key={i} s={s} a={a} p={p} n={Number(m![1])} c={c} /> : <span key={i}>{piece}</span>;
      })}
    </p>
  );
}

function CitedTurns({ s, a, p, answer }: { s: Speech; a: AskMessages; p: AskPanel; answer: AskAnswer }) {
  if (answer.citations.length === 0) return null;
  return (
    <details>
      <summary>{a.citations}</summary>
      <ol class="cited">
        {answer.citations.map((c, i) => {
          const turn = c.recordingId ? undefined : p.turns.find((t) => t.startMs === c.startMs);
          const meeting = c.recordingId ? p.meetings?.[c.recordingId] : undefined;
          return (
            <li key={i}>
              <Citation s={s} a={a} p={p} n={i + 1} c={c} /> <span class="time">{clockOf(s, c.startMs)}</span>{' '}
              {meeting ? <bdi>{a.f('inMeeting', { title: meeting.title })}</bdi> : null}
              {turn ? (
                <>
                  <strong>
                    <bdi>{speakerName(p.speakers, turn.speaker)}</bdi>
                  </strong>
                  {': '}
                  <bdi>{turn.text.length > 200 ? `${turn.text.slice(0, 200)}…` : turn.text}</bdi>
                </>
              ) : null}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

/** The Ask tab: the quote, the question, then the earlier questions and answers, newest first. */
export function AskTab({
  s,
  a,
  viewer,
  p,
  series,
}: {
  s: Speech;
  a: AskMessages;
  viewer: Viewer;
  p: AskPanel;
  series: boolean;
}) {
  return (
    <section class="card" aria-labelledby="ask-h" id="ask">
      <h2 id="ask-h">{series ? a.askSeriesTitle : a.askTitle}</h2>
      <p class="hint">{series ? a.askSeriesIntro : a.askIntro}</p>
      <Notice kind="error" text={p.error} />
      {p.quote ? (
        <PostForm viewer={viewer} action={p.action} class="stack">
          <p class="price" id="ask-quote">
            {series && p.quote.meetingCount !== undefined
              ? a.f('quoteSeries', { minutes: s.number(p.quote.minutes), count: s.number(p.quote.meetingCount) })
              : a.f('quote', { minutes: s.number(p.quote.minutes) })}
          </p>
          <input type="hidden" name="key" value={p.key} />
          <input type="hidden" name="maxMinutes" value={String(p.quote.minutes)} />
          <label>
            {a.question}
            <textarea name="question" required maxLength={500} rows={3} />
          </label>
          <button type="submit">{a.ask}</button>
        </PostForm>
      ) : (
        <p>{p.blocked}</p>
      )}
      <h3>{a.earlier}</h3>
      {p.items.length === 0 ? <p>{a.noEarlier}</p> : null}
      <ol class="asks">
        {p.items.map((x) => (
          <li key={x.id} class="ask-item">
            <p class="question">
              <bdi>{x.question}</bdi>
            </p>
            {x.answer.refused ? <p class="hint">{a.refused}</p> : null}
            <AnswerText s={s} a={a} p={p} answer={x.answer} />
            <CitedTurns s={s} a={a} p={p} answer={x.answer} />
            <p class="hint">
              {a.f('asked', { date: s.date(x.askedAt) })} · {a.f('charged', { minutes: s.number(x.answer.minutes) })}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
