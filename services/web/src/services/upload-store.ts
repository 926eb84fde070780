import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The two files of an upload, as POST /recordings takes them. */
export type UploadPart = 'audio' | 'attachment';
export const UPLOAD_PARTS: readonly UploadPart[] = ['audio', 'attachment'];

export interface PartInfo {
  size: number;
  name: string;
  type: string;
}
export interface UploadMeta {
  accountId: string;
  createdAt: number;
  parts: Partial<Record<UploadPart, PartInfo>>;
  /** The recordings service's 202 once sent: a retried send answers it again. */
  result?: unknown;
}

/** A refusal of the upload store: the status and the contract's code the page shows. */
export class UploadRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
  }
}

/** How long an unfinished upload's pieces are kept. */
const KEEP_MS = 24 * 3600_000;
/** Uploads one account may have open at once (each holds disk until sent or swept). */
export const OPEN_PER_ACCOUNT = 3;
const ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * An upload made in the browser arrives in pieces (at most PIECE_BYTES each, so that a lost
 * connection costs one piece, not the file): each piece is written at its offset in a file of a folder named by a
 * random 128-bit id, under a prefix of the account's hash, so that only that account reaches it.
 * A piece sent twice writes the same bytes at the same place, so a retried piece does no harm.
 * Once every piece is in, the app sends the files to the recordings service in one request.
 */
export class UploadStore {
  /**
   * @param budgetBytes what every unfinished upload in `dir` may declare together: a new one that
   *   would pass it is refused (503 UPLOADS_BUSY, retried by the page) before a byte is written,
   *   so a full disk (a pod's sized /tmp, which the kubelet enforces by evicting the pod and every
   *   upload on it) is never reached.
   */
  constructor(
    private readonly dir: string,
    private readonly budgetBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The bytes the unfinished uploads in the folder declared (a sent one holds none). */
  private async declaredBytes(): Promise<number> {
    let total = 0;
    for (const name of await readdir(this.dir)) {
      const text = await readFile(path.join(this.dir, name, 'meta.json'), 'utf8').catch(() => null);
      if (!text) continue;
      const meta = JSON.parse(text) as UploadMeta;
      if (meta.result) continue;
      for (const part of UPLOAD_PARTS) total += meta.parts[part]?.size ?? 0;
    }
    return total;
  }

  private prefix(accountId: string): string {
    return createHash('sha256').update(accountId).digest('hex').slice(0, 16);
  }
  private folder(accountId: string, id: string): string {
    if (!ID.test(id)) throw new UploadRefusal(404, 'NOT_FOUND');
    return path.join(this.dir, `${this.prefix(accountId)}.${id}`);
  }

  /** Starts an upload of these declared parts; old unfinished uploads are swept first. */
  async create(accountId: string, parts: Partial<Record<UploadPart, PartInfo>>): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const mine: string[] = [];
    for (const name of await readdir(this.dir)) {
      const at = (await stat(path.join(this.dir, name)).catch(() => null))?.mtimeMs ?? 0;
      if (Date.now() - at > KEEP_MS) await rm(path.join(this.dir, name), { recursive: true, force: true });
      else if (name.startsWith(`${this.prefix(accountId)}.`)) mine.push(name);
    }
    if (mine.length >= OPEN_PER_ACCOUNT) {
      // The oldest open upload of the account makes way (a tab closed mid-upload leaves one behind).
      const dated = await Promise.all(mine.map(async (n) => ({ n, at: (await stat(path.join(this.dir, n))).mtimeMs })));
      dated.sort((a, b) => a.at - b.at);
      for (const { n } of dated.slice(0, mine.length - OPEN_PER_ACCOUNT + 1))
        await rm(path.join(this.dir, n), { recursive: true, force: true });
    }
    const wanted = UPLOAD_PARTS.reduce((n, part) => n + (parts[part]?.size ?? 0), 0);
    if (wanted + (await this.declaredBytes()) > this.budgetBytes)
      throw new UploadRefusal(503, 'UPLOADS_BUSY', { retryAfterSeconds: 30 });
    const id = randomBytes(16).toString('base64url');
    const folder = this.folder(accountId, id);
    await mkdir(folder);
    for (const part of UPLOAD_PARTS) if (parts[part]) await writeFile(path.join(folder, part), '');
    await this.writeMeta(folder, { accountId, createdAt: Date.now(), parts });
    return id;
  }

  async meta(accountId: string, id: string): Promise<UploadMeta> {
    const text = await readFile(path.join(this.folder(accountId, id), 'meta.json'), 'utf8').catch(() => null);
    const meta = text ? (JSON.parse(text) as UploadMeta) : null;
    if (!meta || meta.accountId !== accountId) throw new UploadRefusal(404, 'NOT_FOUND');
    return meta;
  }

  private writeMeta(folder: string, meta: UploadMeta): Promise<void> {
    return writeFile(path.join(folder, 'meta.json'), JSON.stringify(meta));
  }

  /** Writes one piece at its offset; answers the bytes held so far (the client resumes from there). */
  async write(accountId: string, id: string, part: UploadPart, offset: number, bytes: Buffer): Promise<number> {
    const meta = await this.meta(accountId, id);
    const info = meta.parts[part];
    if (!info || meta.result) throw new UploadRefusal(409, 'UPLOAD_CLOSED');
    const file = path.join(this.folder(accountId, id), part);
    const held = (await stat(file)).size;
    // Only the next piece, or one already held (a retry): never a hole.
    if (!Number.isInteger(offset) || offset < 0 || offset > held)
      throw new UploadRefusal(409, 'UPLOAD_OFFSET', { received: held });
    if (offset + bytes.length > info.size)
      throw new UploadRefusal(413, part === 'audio' ? 'UPLOAD_TOO_LARGE' : 'ATTACHMENT_TOO_LARGE');
    const fh = await open(file, 'r+');
    try {
      await fh.write(bytes, 0, bytes.length, offset);
    } finally {
      await fh.close();
    }
    return Math.max(held, offset + bytes.length);
  }

  /** The parts' files once every byte came, else a refusal naming what is missing. */
  async complete(
    accountId: string,
    id: string,
  ): Promise<{ meta: UploadMeta; files: Partial<Record<UploadPart, string>> }> {
    const meta = await this.meta(accountId, id);
    const files: Partial<Record<UploadPart, string>> = {};
    if (meta.result) return { meta, files };
    for (const part of UPLOAD_PARTS) {
      const info = meta.parts[part];
      if (!info) continue;
      const file = path.join(this.folder(accountId, id), part);
      const held = (await stat(file)).size;
      if (held !== info.size) throw new UploadRefusal(409, 'UPLOAD_OFFSET', { part, received: held });
      files[part] = file;
    }
    return { meta, files };
  }

  /** Keeps the service's answer and lets the files go. */
  async sent(accountId: string, id: string, result: unknown): Promise<void> {
    const meta = await this.meta(accountId, id);
    const folder = this.folder(accountId, id);
    await this.writeMeta(folder, { ...meta, result });
    for (const part of UPLOAD_PARTS) await rm(path.join(folder, part), { force: true });
  }

  async remove(accountId: string, id: string): Promise<void> {
    await this.meta(accountId, id);
    await rm(this.folder(accountId, id), { recursive: true, force: true });
  }
}
