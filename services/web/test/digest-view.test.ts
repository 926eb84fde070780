import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { meetingText } from '../src/i18n/meeting-messages';
import { contentLang, Digest } from '../src/views/meeting-parts';

/** The meeting page's digest card: an empty list says so in words (outside review, session 37). */
describe('the digest card', () => {
  it('says a list is empty in words, in both languages, and lists the items of one that is not', () => {
    const sections = [
      { kind: 'summary', title: 'Summary', text: 'We met.' },
      { kind: 'decision_list', title: 'Decisions', items: [] },
      {
        kind: 'action_item_list',
        title: 'Action items',
        items: [{ text: 'Sara will send the notes.', owner: 'Sara' }],
      },
    ];
    for (const locale of ['en', 'fa'] as const) {
      const m = meetingText(locale);
      const html = renderToString(h(Digest, { m, sections }));
      expect(html).not.toContain('<li>—</li>');
      const dir = locale === 'fa' ? 'rtl' : 'ltr';
      expect(html).toContain(`<h3>Decisions</h3><p class="hint" lang="${locale}" dir="${dir}">${m.noneSaid}</p>`);
      expect(html).toContain('<li>Sara will send the notes. (Sara)</li>');
    }
  });
});

describe("the page's own words inside a digest of another language", () => {
  it('say "none" in the page\'s language and direction, inside a Persian digest of an English page', () => {
    const html = renderToString(
      h(Digest, {
        m: meetingText('en'),
        sections: [{ kind: 'decision_list', title: 'تصمیم‌ها', items: [] }],
        language: 'fa',
      }),
    );
    expect(html).toContain(
      'lang="fa" dir="rtl"><h3>تصمیم‌ها</h3><p class="hint" lang="en" dir="ltr">None in this meeting.</p>',
    );
  });
});

describe("a meeting's own words in a page of another language", () => {
  it('carry their language and direction, or let the browser find the direction when it is not known', () => {
    expect(contentLang('en')).toEqual({ lang: 'en', dir: 'ltr' });
    expect(contentLang('fa')).toEqual({ lang: 'fa', dir: 'rtl' });
    expect(contentLang('fa-IR')).toEqual({ lang: 'fa-IR', dir: 'rtl' });
    for (const unknown of [null, undefined, '', 'not a code', '"><script>'])
      expect(contentLang(unknown)).toEqual({ dir: 'auto' });
    // An English digest in the Persian page: its sections say so.
    const html = renderToString(
      h(Digest, {
        m: meetingText('fa'),
        sections: [{ kind: 'summary', title: 'Summary', text: 'We met.' }],
        language: 'en',
      }),
    );
    expect(html).toContain('<div class="section" data-kind="summary" lang="en" dir="ltr">');
  });
});
