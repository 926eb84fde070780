// The meeting page's live parts.

const POLL_MS = 2000;

/**
 * A meeting in progress: its status (element with data-live, the URL of the status as JSON) is
 * polled every two seconds; when it changes the page loads again, showing what the new status
 * brings (the naming link, the digest, the transcript). Stops at READY or FAILED.
 */
export function followStatus(doc) {
  const el = doc.querySelector('[data-live]');
  if (!el) return;
  const url = el.getAttribute('data-live');
  const shown = el.getAttribute('data-status');
  const tick = () => {
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : null))
      .then((s) => {
        if (s && s.status !== shown) {
          el.textContent = s.label;
          el.setAttribute('data-status', s.status);
          window.location.reload();
          return;
        }
        setTimeout(tick, POLL_MS);
      })
      .catch(() => setTimeout(tick, POLL_MS * 5));
  };
  setTimeout(tick, POLL_MS);
}

/** Clicking a turn's time seeks the player to it; the turn being played is highlighted. */
export function followPlayer(doc) {
  const player = doc.getElementById('player');
  if (!player) return;
  const turns = Array.from(doc.querySelectorAll('li[data-start-ms]'));
  doc.querySelectorAll('button[data-seek]').forEach((b) => {
    b.hidden = false;
    b.addEventListener('click', () => {
      player.currentTime = Number(b.getAttribute('data-seek')) / 1000;
      player.play().catch(() => undefined);
    });
  });
  doc.querySelectorAll('.noscript-time').forEach((t) => {
    t.hidden = true;
  });
  // `?at=<ms>` (a citation, a search hit): the player starts there, plays (where the browser lets a
  // page play without a click on it; otherwise it waits there) and the turn is brought into view.
  const at = Number(new URLSearchParams(window.location.search).get('at'));
  if (at > 0) {
    const seek = () => {
      player.currentTime = at / 1000;
      player.play().catch(() => undefined);
    };
    if (player.readyState >= 1) seek();
    else player.addEventListener('loadedmetadata', seek, { once: true });
    const turn = turns.find(
      (li) => at >= Number(li.getAttribute('data-start-ms')) && at < Number(li.getAttribute('data-end-ms')),
    );
    if (turn) turn.scrollIntoView({ block: 'center' });
  }
  player.addEventListener('timeupdate', () => {
    const ms = player.currentTime * 1000;
    for (const li of turns) {
      const on = ms >= Number(li.getAttribute('data-start-ms')) && ms < Number(li.getAttribute('data-end-ms'));
      li.classList.toggle('current', on);
      if (on) li.setAttribute('aria-current', 'true');
      else li.removeAttribute('aria-current');
    }
  });
}

/**
 * The meetings list: the unfinished meetings (element with data-live-list, the URL of their
 * signature) are polled every four seconds; when they change (a new meeting, a new status, one
 * finished) the page loads again.
 */
export function followList(doc) {
  const el = doc.querySelector('[data-live-list]');
  if (!el) return;
  const url = el.getAttribute('data-live-list');
  const shown = el.getAttribute('data-sig');
  const tick = () => {
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : null))
      .then((s) => {
        if (s && s.sig !== shown) return window.location.reload();
        setTimeout(tick, POLL_MS * 2);
      })
      .catch(() => setTimeout(tick, POLL_MS * 5));
  };
  setTimeout(tick, POLL_MS * 2);
}
