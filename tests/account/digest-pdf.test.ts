import { loadConfig } from '../../services/account/src/config';
import { canRenderLanguage, renderDigestPdf } from '../../services/account/src/mail/digest-pdf.renderer';
import type { DigestForEmail } from '../../services/account/src/domain/summary-email';
import { normalizeSpace, pdfText, pdfTextItems } from '../support/pdf-text';

/** The digest PDF as the summary email attaches it, read back with a PDF text extractor. */
const fonts = loadConfig({}).summaryEmail.pdfFonts;
const baseFonts = (pdf: Buffer) => pdf.toString('latin1').match(/\/BaseFont \/[^\s/]+/g) ?? [];
// The extractor splits the half-space and a hamza above off their words; compare without them.
const plain = (s: string) => normalizeSpace(s.replace(/\u200c/g, ' ').replace(/\u0654/g, ''));

const english: DigestForEmail = {
  recordingId: 'rec_en',
  displayTitle: 'Weekly standup',
  language: 'en',
  recordedAt: '2026-03-05T09:30:00.000Z',
  speakers: [{ name: 'Sara' }],
  sections: [
    {
      kind: 'summary',
      title: 'Summary',
      text: 'We decided to ship the release on Friday. The customer survey asks for a faster search page, so the team will look at it next week.',
    },
    { kind: 'action_item_list', title: 'Action items', items: [{ text: 'send the release notes', owner: 'Sara' }] },
  ],
};

const persian: DigestForEmail = {
  recordingId: 'rec_fa',
  displayTitle: 'جلسهٔ برنامه‌ریزی هفتگی',
  language: 'fa',
  recordedAt: '2026-03-05T09:30:00.000Z',
  speakers: [{ name: 'سارا' }, { name: 'علی' }],
  sections: [
    {
      kind: 'summary',
      title: 'خلاصه',
      text: 'تصمیم گرفتیم نسخهٔ جدید NATS را جمعه ساعت ۹:۳۰ منتشر کنیم. سارا یادداشت‌ها را فردا می‌فرستد.',
    },
    { kind: 'decision_list', title: 'تصمیم‌ها', items: ['انتشار نسخه در روز جمعه'] },
    { kind: 'action_item_list', title: 'کارهای پیگیری', items: [{ text: 'فرستادن یادداشت‌ها', owner: 'سارا' }] },
  ],
};

describe('the digest PDF', () => {
  it('finds a font on this machine that writes Persian (DejaVu Sans)', () => {
    expect(fonts.regular).toMatch(/DejaVuSans\.ttf$/);
    expect(canRenderLanguage(fonts, 'fa')).toBe(true);
    expect(canRenderLanguage({ regular: null, bold: null }, 'fa')).toBe(false);
    expect(canRenderLanguage({ regular: null, bold: null }, 'en')).toBe(true);
  });

  it('writes a Persian digest with the font embedded; every word of it reads back, numbers and Latin words the right way round', async () => {
    const pdf = await renderDigestPdf(persian, fonts);
    expect(baseFonts(pdf).some((f) => f.includes('DejaVuSans'))).toBe(true);
    expect(pdf.toString('latin1')).toContain('/FontFile2');
    const text = plain(await pdfText(pdf));
    const words = [
      persian.displayTitle,
      persian.sections[0].text as string,
      'انتشار نسخه در روز جمعه',
      'سارا',
      'علی',
    ].flatMap((t) => plain(t).split(' '));
    for (const word of words) expect(text).toContain(word.replace(/[.،]$/, ''));
    expect(text).toContain('۹:۳۰');
    expect(text).toContain('NATS');
  });

  it('lays a Persian line out from the right: the first word rightmost, a Latin word left of the word before it', async () => {
    const items = await pdfTextItems(await renderDigestPdf(persian, fonts));
    const y = items.find((i) => i.str.includes('گرفتیم'))!.y;
    const line = items.filter((i) => i.y === y);
    const at = (word: string) => line.find((i) => i.str.includes(word))!.x;
    for (const [before, after] of [
      ['تصمیم', 'گرفتیم'],
      ['جدید', 'NATS'],
      ['NATS', 'جمعه'],
      ['منتشر', 'سارا'],
      ['سارا', 'یادداشت'],
    ]) {
      expect(at(before)).toBeGreaterThan(at(after));
    }
  });

  it('writes an English digest with the built-in Helvetica when no font is found', async () => {
    const pdf = await renderDigestPdf(english, { regular: null, bold: null });
    expect(baseFonts(pdf)).toEqual(expect.arrayContaining(['/BaseFont /Helvetica', '/BaseFont /Helvetica-Bold']));
    const text = normalizeSpace(await pdfText(pdf));
    expect(text).toContain(english.sections[0].text);
    expect(text).toContain('send the release notes — Sara');
  });

  it('writes an English digest with the embedded font too, its summary whole', async () => {
    const text = normalizeSpace(await pdfText(await renderDigestPdf(english, fonts)));
    expect(text).toContain('Weekly standup');
    expect(text).toContain(english.sections[0].text);
  });
});
