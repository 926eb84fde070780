// Upload and record in the browser (the upload page's form).
//
// The file goes in pieces to the app (each at most data-piece-bytes, 8 MB: the gateway's door
// streams them; a small file goes in pieces of about a sixteenth of it, at least 64 KB, so the
// progress bar moves), which then sends it whole to the recordings service. One Idempotency-Key is made per
// chosen file, before the first try, and kept for every retry: a retried upload never makes two
// meetings (the contract's idempotency rules; the service keeps them).
import { meetingPrice, attachmentPrice } from '@mm/contract/src/pricing';

const RETRIES = 5;
/** What the recorder is asked to make, in this order of preference. */
const RECORDER_TYPES = ['audio/mp4', 'audio/ogg;codecs=opus', 'audio/webm;codecs=opus'];
const EXTENSIONS = { 'audio/mp4': 'm4a', 'audio/ogg': 'ogg', 'audio/webm': 'webm' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A random key of 32 hex digits (128 bits), the contract's advice: never derived from the file. */
function newKey() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The audio's length in ms as the browser reads it, or null when it cannot. */
function measure(blob) {
  return new Promise((resolve) => {
    const a = document.createElement('audio');
    const url = URL.createObjectURL(blob);
    const done = (v) => {
      URL.revokeObjectURL(url);
      resolve(v);
    };
    a.preload = 'metadata';
    a.addEventListener('loadedmetadata', () => done(Number.isFinite(a.duration) ? a.duration * 1000 : null));
    a.addEventListener('error', () => done(null));
    setTimeout(() => done(null), 10000);
    a.src = url;
  });
}

export function followUpload(doc) {
  const form = doc.getElementById('upload-form');
  if (!form) return;
  const m = JSON.parse(form.getAttribute('data-messages'));
  const locale = form.getAttribute('data-locale') === 'fa' ? 'fa-IR' : 'en';
  const maxBytes = Number(form.getAttribute('data-max-bytes'));
  const attachmentMaxBytes = Number(form.getAttribute('data-attachment-max-bytes'));
  const pieceBytes = Number(form.getAttribute('data-piece-bytes'));
  /** The piece size for a file of `size` bytes: a sixteenth of it, at least 64 KB, at most pieceBytes. */
  const pieceOf = (size) => Math.min(pieceBytes, Math.max(65536, Math.ceil(size / 16)));
  const uploadsUrl = form.getAttribute('data-uploads');
  const csrf = (form.querySelector('input[name="_csrf"]') || {}).value || '';
  const audioInput = doc.getElementById('audio-file');
  const attachmentInput = doc.getElementById('attachment-file');
  const keyterms = doc.getElementById('use-keyterms');
  const price = doc.getElementById('price');
  const progress = doc.getElementById('upload-progress');
  const error = doc.getElementById('upload-error');
  const status = doc.getElementById('upload-status');
  const send = doc.getElementById('upload-send');
  const fmt = (n) => Number(n).toLocaleString(locale);
  // As fillText (src/i18n/messages.ts): placeholders filled, and "1 minutes" said "1 minute".
  const fill = (text, values) =>
    text
      .replace(/\{(\w+)\}/g, (x, k) => (values[k] === undefined ? x : String(values[k])))
      .replace(/(^|[^\w.,])1 (minute|meeting)s\b/g, (_m, before, noun) => `${before}1 ${noun}`);

  /** What is to be sent: the file (or the recording), its length, its key, its upload at the app. */
  let chosen = null;

  const showError = (text) => {
    error.textContent = text || '';
    error.hidden = !text;
  };
  const refusal = (code, message) => {
    if (code === 'VALIDATION' && /unsupported audio type/i.test(message || '')) return m.UNSUPPORTED;
    if (code === 'VALIDATION') return fill(m.VALIDATION, { message: message || '' });
    return m[code] || fill(m.GENERIC, { code });
  };
  const showPrice = () => {
    if (!chosen) return void (price.textContent = m.priceUnknown);
    if (chosen.durationMs === undefined) return void (price.textContent = m.priceMeasuring);
    if (chosen.durationMs === null) return void (price.textContent = m.priceNotMeasured);
    const att = attachmentInput.files[0];
    const p = meetingPrice({
      durationMs: chosen.durationMs,
      usesKeyterms: keyterms.checked,
      attachmentMinutes: att ? attachmentPrice(att.size) : 0,
    });
    price.textContent = fill(m.priceOf, { minutes: fmt(p.minutes) });
    price.setAttribute('data-minutes', String(p.minutes));
  };
  const choose = (blob, name, durationMs) => {
    if (chosen && chosen.uploadId) {
      fetch(`${uploadsUrl}/${chosen.uploadId}`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } }).catch(
        () => undefined,
      );
    }
    chosen = { blob, name, type: blob.type || 'application/octet-stream', durationMs, key: newKey(), uploadId: null };
    showError(blob.size > maxBytes ? m.UPLOAD_TOO_LARGE : '');
    send.disabled = blob.size > maxBytes;
    progress.value = 0;
    status.textContent = '';
    showPrice();
    if (durationMs === undefined) {
      const mine = chosen;
      measure(blob).then((ms) => {
        if (chosen !== mine) return;
        chosen.durationMs = ms;
        showPrice();
      });
    }
  };

  audioInput.addEventListener('change', () => {
    const f = audioInput.files[0];
    if (f) choose(f, f.name, undefined);
  });
  attachmentInput.addEventListener('change', () => {
    const f = attachmentInput.files[0];
    showError(f && f.size > attachmentMaxBytes ? m.ATTACHMENT_TOO_LARGE : '');
    showPrice();
  });
  keyterms.addEventListener('change', showPrice);
  // A series chosen: the kind and the digest language start at the series' defaults (still changeable).
  const seriesSelect = form.elements.namedItem('seriesId');
  if (seriesSelect)
    seriesSelect.addEventListener('change', () => {
      const option = seriesSelect.selectedOptions[0];
      if (!option) return;
      for (const [name, attribute] of [
        ['kind', 'data-kind'],
        ['outputLanguage', 'data-language'],
      ]) {
        const value = option.getAttribute(attribute);
        const field = form.elements.namedItem(name);
        if (value && field) field.value = value;
      }
    });

  const zone = doc.getElementById('dropzone');
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (!f) return;
    try {
      audioInput.files = e.dataTransfer.files;
    } catch {
      // Older browsers cannot set a file input's files: the chosen file is kept all the same.
    }
    choose(f, f.name, undefined);
  });

  /** A JSON request to the app, retried on network errors, 5xx and 503 with Retry-After. */
  async function call(method, url, body, type) {
    for (let attempt = 0; ; attempt++) {
      let res = null;
      try {
        res = await fetch(url, {
          method,
          credentials: 'same-origin',
          headers: { 'x-csrf-token': csrf, 'content-type': type || 'application/json', accept: 'application/json' },
          body: type ? body : JSON.stringify(body),
        });
      } catch {
        res = null;
      }
      if (res && res.status < 500) return { status: res.status, body: await res.json().catch(() => ({})) };
      if (attempt >= RETRIES) {
        const b = res ? await res.json().catch(() => ({})) : {};
        return { status: res ? res.status : 0, body: b };
      }
      const wait =
        res && res.headers.get('retry-after') ? Number(res.headers.get('retry-after')) * 1000 : 500 * 2 ** attempt;
      await sleep(Math.min(wait, 15000));
    }
  }

  async function sendParts(c, att) {
    const parts = [['audio', c.blob]].concat(att ? [['attachment', att]] : []);
    const total = parts.reduce((n, [, b]) => n + b.size, 0);
    let before = 0;
    for (const [part, blob] of parts) {
      let offset = 0;
      while (offset < blob.size) {
        const piece = blob.slice(offset, offset + pieceOf(blob.size));
        const r = await call(
          'PUT',
          `${uploadsUrl}/${c.uploadId}/${part}?offset=${offset}`,
          piece,
          'application/octet-stream',
        );
        if (r.status === 200) offset = r.body.received;
        else if (r.body.error && r.body.error.code === 'UPLOAD_OFFSET') offset = r.body.error.details.received;
        else return r;
        progress.value = Math.floor(((before + offset) / total) * 100);
      }
      before += blob.size;
    }
    return null;
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!chosen) return;
    const c = chosen;
    const att = attachmentInput.files[0] || null;
    send.disabled = true;
    showError('');
    status.textContent = m.sending;
    const fields = { idempotencyKey: c.key };
    for (const name of ['title', 'kind', 'outputLanguage', 'seriesId', 'naming']) {
      const el = form.elements.namedItem(name);
      if (el && el.value) fields[name] = el.value;
    }
    if (keyterms.checked) fields.useKeyterms = 'true';
    if (c.recordedAt) fields.recordedAt = c.recordedAt;
    let answer = null;
    for (let round = 0; round < 2 && !answer; round++) {
      if (!c.uploadId) {
        const made = await call('POST', uploadsUrl, {
          audio: { size: c.blob.size, name: c.name, type: c.type },
          attachment: att ? { size: att.size, name: att.name, type: att.type } : null,
        });
        if (made.status !== 201) {
          answer = made;
          break;
        }
        c.uploadId = made.body.id;
      }
      const refused = await sendParts(c, att);
      if (refused) answer = refused;
      else {
        progress.value = 100;
        const sent = await call('POST', `${uploadsUrl}/${c.uploadId}/send`, fields);
        // The pieces were swept meanwhile: upload again under the same key (never a second meeting).
        if (sent.status === 404) c.uploadId = null;
        else answer = sent;
      }
    }
    if (answer && answer.status === 202) {
      status.textContent = m.sent;
      window.location.assign(answer.body.page);
      return;
    }
    const err = answer && answer.body && answer.body.error;
    status.textContent = '';
    // Nothing was made: the bar starts again from empty (a retry sends the pieces again).
    progress.value = 0;
    showError(answer && answer.status ? refusal(err ? err.code : 'INTERNAL_ERROR', err && err.message) : m.NETWORK);
    send.disabled = false;
  });

  followRecorder(doc, m, fmt, fill, (blob, ms, startedAt, extension) => {
    choose(blob, `recording-${startedAt.replace(/[:.]/g, '-')}.${extension}`, ms);
    chosen.recordedAt = startedAt;
  });
}

/** Record in the browser (MediaRecorder): the recording becomes the file to send. */
function followRecorder(doc, m, fmt, fill, done) {
  const box = doc.getElementById('recorder');
  if (!box || typeof window.MediaRecorder !== 'function' || !navigator.mediaDevices) return;
  box.hidden = false;
  const start = doc.getElementById('record-start');
  const stop = doc.getElementById('record-stop');
  const state = doc.getElementById('record-state');
  const clock = (ms) => {
    const s = Math.floor(ms / 1000);
    return `${fmt(Math.floor(s / 60))}:${fmt(s % 60).padStart(2, fmt(0))}`;
  };
  let recorder = null;
  start.addEventListener('click', async () => {
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      state.textContent = m.recordRefused;
      return;
    }
    // MP4 or Ogg first: their length is in the file. A recorder's WebM has none, and the
    // recordings service measures WebM only from its header today (see the report of issue 29).
    const type = RECORDER_TYPES.find((t) => MediaRecorder.isTypeSupported(t)) || '';
    recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks = [];
    const began = Date.now();
    const startedAt = new Date(began).toISOString();
    const tick = setInterval(() => (state.textContent = fill(m.recording, { time: clock(Date.now() - began) })), 1000);
    recorder.addEventListener('dataavailable', (e) => e.data.size && chunks.push(e.data));
    recorder.addEventListener('stop', () => {
      clearInterval(tick);
      stream.getTracks().forEach((t) => t.stop());
      const ms = Date.now() - began;
      state.textContent = fill(m.recorded, { time: clock(ms) });
      const made = (recorder.mimeType || type || 'audio/webm').split(';')[0];
      done(new Blob(chunks, { type: made }), ms, startedAt, EXTENSIONS[made] || 'webm');
      start.disabled = false;
      stop.disabled = true;
    });
    recorder.start(1000);
    state.textContent = fill(m.recording, { time: clock(0) });
    start.disabled = true;
    stop.disabled = false;
  });
  stop.addEventListener('click', () => recorder && recorder.state !== 'inactive' && recorder.stop());
}
