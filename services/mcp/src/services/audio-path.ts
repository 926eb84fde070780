import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { ToolInputError } from './tool-input-error';

/**
 * The audio of a submit over stdio: an absolute path (a relative one would resolve against the
 * server's working directory, which the caller neither sees nor chose) to a readable file.
 */
export async function audioPath(p: string): Promise<string> {
  if (!path.isAbsolute(p))
    throw new ToolInputError(`path must be absolute (the server's working directory is not yours): ${p}`);
  let stat;
  try {
    stat = await fs.stat(p);
    await fs.access(p, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolInputError(`path ${p}: no such file`);
    if (code === 'EACCES' || code === 'EPERM') throw new ToolInputError(`path ${p}: not readable by the server`);
    throw new ToolInputError(`path ${p}: ${(err as Error).message}`);
  }
  if (!stat.isFile()) throw new ToolInputError(`path ${p}: not a file`);
  return p;
}
