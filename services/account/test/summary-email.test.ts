import {
  attachmentName,
  digestBlocks,
  emailHtml,
  emailSubject,
  emailText,
  meetingDate,
  summaryText,
  type DigestForEmail,
} from '../src/domain/summary-email';

const digest = (over: Partial<DigestForEmail> = {}): DigestForEmail => ({
  recordingId: 'rec_1',
  displayTitle: 'Weekly\nstandup',
  language: 'en',
  recordedAt: '2026-03-05T09:30:00.000Z',
  speakers: [{ name: 'Sara' }, { name: null }, { name: 'John' }],
  sections: [
    { kind: 'summary', title: 'Summary', text: 'We ship on Friday.' },
    { kind: 'decision_list', title: 'Decisions', items: [] },
    {
      kind: 'action_item_list',
      title: 'Action items',
      items: [
        { text: 'send the notes', owner: 'Sara' },
        { text: 'fix   login', owner: null },
      ],
    },
    { kind: 'future_kind', items: ['something new'] },
  ],
  ...over,
});

describe('the summary email', () => {
  it('lays out sections as blocks: text, items with owners, "None noted." for an empty list, unknown kinds by their items', () => {
    expect(digestBlocks(digest().sections, 'en')).toEqual([
      { kind: 'summary', heading: 'Summary', text: 'We ship on Friday.', items: [] },
      { kind: 'decision_list', heading: 'Decisions', text: 'None noted.', items: [] },
      { kind: 'action_item_list', heading: 'Action items', text: null, items: ['send the notes — Sara', 'fix login'] },
      { kind: 'future_kind', heading: 'future_kind', text: null, items: ['something new'] },
    ]);
    expect(digestBlocks([{ kind: 'decision_list', title: 'تصمیم‌ها', items: [] }], 'fa')[0].text).toBe('موردی ثبت نشد.');
  });

  it('finds the summary text', () => {
    expect(summaryText(digest().sections)).toBe('We ship on Friday.');
    expect(summaryText([])).toBe('');
  });

  it("titles the subject in the owner's app language, on one line", () => {
    expect(emailSubject(digest(), 'en')).toBe('Meeting notes: Weekly standup');
    expect(emailSubject(digest(), 'fa')).toBe('یادداشت جلسه: Weekly standup');
  });

  it('dates the meeting in UTC, in the Solar Hijri calendar for a Persian digest', () => {
    expect(meetingDate('2026-03-05T09:30:00.000Z', 'en')).toBe('5 March 2026 at 09:30 UTC');
    expect(meetingDate('2026-03-05T09:30:00.000Z', 'fa')).toContain('۱۴۰۴');
  });

  it('writes the plain body: title, date, speakers, sections, the PDF note and the meeting link', () => {
    expect(emailText(digest(), { url: 'http://app/recordings/rec_1', withPdf: true })).toBe(
      [
        'Weekly standup',
        '5 March 2026 at 09:30 UTC',
        'Speakers: Sara, John',
        '',
        'Summary',
        'We ship on Friday.',
        '',
        'Decisions',
        'None noted.',
        '',
        'Action items',
        '- send the notes — Sara',
        '- fix login',
        '',
        'future_kind',
        '- something new',
        '',
        'The full digest is attached as a PDF.',
        'Open the meeting: http://app/recordings/rec_1',
        '',
      ].join('\n'),
    );
    expect(emailText(digest(), { url: 'u', withPdf: false })).toContain('could not be attached as a PDF');
  });

  it('escapes the HTML body and writes a Persian one right to left', () => {
    const html = emailHtml(digest({ displayTitle: '<b>Q&A</b>' }), { url: 'http://app/r?a=1&b=2', withPdf: true });
    expect(html).toContain('<h1>&#60;b&#62;Q&#38;A&#60;/b&#62;</h1>');
    expect(html).toContain('href="http://app/r?a=1&#38;b=2"');
    expect(emailHtml(digest({ language: 'fa' }), { url: 'u', withPdf: true })).toContain('dir="rtl"');
  });

  it('names the attachment after the title and day, without path or reserved characters', () => {
    expect(attachmentName(digest())).toBe('Weekly standup 2026-03-05.pdf');
    expect(attachmentName(digest({ displayTitle: 'a/b:c*?"<>|\u0007d' }))).toBe('a b c d 2026-03-05.pdf');
    expect(attachmentName(digest({ displayTitle: '///' }))).toBe('meeting 2026-03-05.pdf');
    expect(attachmentName(digest({ displayTitle: 'x'.repeat(200) }))).toHaveLength(80 + ' 2026-03-05.pdf'.length);
  });
});
