import { loadConfig } from '../src/config';

describe('the summary email configuration', () => {
  it('sends nothing without SMTP_URL and writes from no-reply@localhost by default', () => {
    const c = loadConfig({}).summaryEmail;
    expect(c.smtpUrl).toBeNull();
    expect(c.from).toBe('Meeting Memory <no-reply@localhost>');
  });

  it('takes smtp:// and smtps:// URLs and SMTP_FROM', () => {
    const c = loadConfig({
      SMTP_URL: 'smtps://user:pw@mail.example.test:465',
      SMTP_FROM: 'Notes <notes@example.test>',
    }).summaryEmail;
    expect(c).toMatchObject({ smtpUrl: 'smtps://user:pw@mail.example.test:465', from: 'Notes <notes@example.test>' });
  });

  it('reports a bad SMTP_URL and a missing PDF_FONT file together', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.test', PDF_FONT: '/nowhere/font.ttf' })).toThrow(
      /SMTP_URL must be smtp:[\s\S]*PDF_FONT: no file at \/nowhere\/font\.ttf/,
    );
  });

  it('uses Helvetica when PDF_FONT is "builtin"', () => {
    expect(loadConfig({ PDF_FONT: 'builtin' }).summaryEmail.pdfFonts).toEqual({ regular: null, bold: null });
  });
});
