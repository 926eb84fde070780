import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { sniffMedia } from '@mm/contract';
import { ToolInputError } from './tool-input-error';

/** A local file the server may send: its real path, the name and size said in the tool's answer. */
export interface UploadableFile {
  path: string;
  name: string;
  size: number;
}

/**
 * The audio of a submit over stdio. A model names the path, and a transcript read back into the
 * model can name any path: so the file must lie inside a folder the person allowed (the MCP
 * client's roots, or MM_UPLOAD_DIRS), checked on the path as written before anything is opened and
 * again once symbolic links are resolved, and its first bytes must say it is audio or video.
 */
export async function uploadableAudio(p: string, allowedDirs: readonly string[]): Promise<UploadableFile> {
  if (!path.isAbsolute(p))
    throw new ToolInputError(`path must be absolute (the server's working directory is not yours): ${p}`);
  if (allowedDirs.length === 0)
    throw new ToolInputError(
      'this server uploads no file: the MCP client shares no roots and MM_UPLOAD_DIRS is not set ' +
        '(ask the person to allow a folder)',
    );
  const outside = () =>
    new ToolInputError(`path ${p}: not inside a folder uploads are allowed from (${allowedDirs.join(', ')})`);
  if (!inside(path.resolve(p), allowedDirs)) throw outside();
  let real: string;
  let stat;
  try {
    real = await fs.realpath(p);
    stat = await fs.stat(real);
    await fs.access(real, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolInputError(`path ${p}: no such file`);
    if (code === 'EACCES' || code === 'EPERM') throw new ToolInputError(`path ${p}: not readable by the server`);
    throw new ToolInputError(`path ${p}: ${(err as Error).message}`);
  }
  const realDirs = await Promise.all(allowedDirs.map((d) => fs.realpath(d).catch(() => d)));
  if (!inside(real, realDirs)) throw outside();
  if (!stat.isFile()) throw new ToolInputError(`path ${p}: not a file`);
  if (!sniffMedia(await head(real)))
    throw new ToolInputError(
      `path ${p}: not an audio or video file (its first bytes are no known format); nothing was sent`,
    );
  return { path: real, name: path.basename(p), size: stat.size };
}

/** Whether `file` lies inside one of `dirs` (a folder is not inside itself). */
function inside(file: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => {
    const rel = path.relative(path.resolve(dir), file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
}

async function head(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
