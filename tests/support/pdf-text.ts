// pdf-parse's index runs a self-test (reading a file it does not ship) whenever `module.parent` is
// unset, which depends on the loader; the library file has no such code. Its types are the index's.
import type PdfParse from 'pdf-parse';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pdfParse: typeof PdfParse = require('pdf-parse/lib/pdf-parse.js');

/**
 * The text of a PDF, as a reader would copy it. The pdf.js that pdf-parse bundles (1.10) misreads
 * a Node Buffer (object offsets come out shifted: "bad XRef entry"); a plain Uint8Array copy of
 * the bytes reads right.
 */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const own = new Uint8Array(pdf.byteLength);
  own.set(pdf);
  return (await pdfParse(own as Buffer)).text;
}

/** The text pieces of a PDF's pages with where they start (x from the left, y from the bottom, in points). */
export async function pdfTextItems(pdf: Buffer | Uint8Array): Promise<{ str: string; x: number; y: number }[]> {
  const own = new Uint8Array(pdf.byteLength);
  own.set(pdf);
  const pages: string[] = [];
  await pdfParse(own as Buffer, {
    pagerender: async (page: { getTextContent(): Promise<{ items: { str: string; transform: number[] }[] }> }) => {
      const content = await page.getTextContent();
      const json = JSON.stringify(content.items.map((i) => ({ str: i.str, x: i.transform[4], y: i.transform[5] })));
      pages.push(json);
      return json;
    },
  });
  return pages.flatMap((p) => JSON.parse(p));
}

/** Whitespace runs become one space, ends trimmed: line wrapping must not matter to a comparison. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
