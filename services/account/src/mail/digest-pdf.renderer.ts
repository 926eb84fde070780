import PDFDocument from 'pdfkit';
import { digestBlocks, meetingDate, oneLine, speakerLine, type DigestForEmail } from '../domain/summary-email';
import { isRtlText, rtlPieces, wrapWords } from '../domain/rtl-text';

/** TrueType fonts to embed; null falls back to the PDF's built-in Helvetica (Latin only). */
export interface PdfFonts {
  regular: string | null;
  bold: string | null;
}

/** Whether these fonts can write a digest in this language (Helvetica cannot write Persian). */
export function canRenderLanguage(fonts: PdfFonts, language: string): boolean {
  return language !== 'fa' || fonts.regular !== null;
}

type Doc = InstanceType<typeof PDFDocument>;

/** A right-to-left paragraph, wrapped and laid out from the right margin (see domain/rtl-text). */
function writeRtl(doc: Doc, text: string): void {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const lines = wrapWords(text.split(/[ \t\n\r]+/).filter(Boolean), right - left, (s) => doc.widthOfString(s));
  for (const line of lines) {
    const height = doc.currentLineHeight(true);
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const y = doc.y;
    let x = right;
    for (const piece of rtlPieces(line)) {
      x -= doc.widthOfString(piece);
      doc.text(piece, x, y, { lineBreak: false });
    }
    doc.x = left;
    doc.y = y + height;
  }
}

/**
 * Writes the digest as an A4 PDF: title, when and who, then each section. A right-to-left
 * paragraph (Persian) is right-aligned in reading order; the rest is left to pdfkit.
 */
export async function renderDigestPdf(d: DigestForEmail, fonts: PdfFonts): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: oneLine(d.displayTitle), Creator: 'Meeting Memory' },
    lang: d.language === 'fa' ? 'fa' : 'en',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (fonts.regular) doc.registerFont('body', fonts.regular);
  if (fonts.bold) doc.registerFont('body-bold', fonts.bold);
  const regular = fonts.regular ? 'body' : 'Helvetica';
  const bold = fonts.bold ? 'body-bold' : fonts.regular ? 'body' : 'Helvetica-Bold';
  const persian = d.language === 'fa';
  const write = (text: string, font: string, size: number, opts: { color?: string; gap?: number } = {}) => {
    doc
      .font(font)
      .fontSize(size)
      .fillColor(opts.color ?? '#111111');
    // In a Persian digest a line with no Latin letter at all (a date in Persian digits) reads right to left too.
    if (isRtlText(text) || (persian && !/\p{Script=Latin}/u.test(text))) writeRtl(doc, text);
    else doc.text(text, doc.page.margins.left, doc.y, { align: 'left' });
    doc.moveDown(opts.gap ?? 0.4);
  };

  write(oneLine(d.displayTitle), bold, 20, { gap: 0.2 });
  write(meetingDate(d.recordedAt, d.language), regular, 10, { color: '#555555', gap: 0.1 });
  const who = speakerLine(d);
  if (who) write(who, regular, 10, { color: '#555555' });
  doc.moveDown(0.6);
  for (const block of digestBlocks(d.sections, d.language)) {
    write(block.heading, bold, 14, { gap: 0.3 });
    if (block.text) write(block.text, regular, 11, { gap: 0.5 });
    for (const item of block.items) write(`• ${item}`, regular, 11, { gap: 0.2 });
    doc.moveDown(0.6);
  }
  doc.end();
  return done;
}
