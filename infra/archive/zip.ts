import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** One file of an archive: its path inside (forward slashes, UTF-8) and its bytes. */
export interface ZipEntry {
  name: string;
  data: Buffer | string;
}

/**
 * A zip archive written as a stream (yazl: deflate runs in zlib's thread pool, zip64 when needed).
 * The next entry is asked of `entries` only once the archive has taken in the previous one, and the
 * reader's pace holds the writer back (back-pressure through the deflate stream), so a caller that
 * reads each file when asked has one in memory at a time however large the archive. An error of
 * `entries` destroys the stream with it; a stream destroyed by its reader stops asking.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>, modified = new Date()): Readable {
  const archive = new ZipFile();
  const output = archive.outputStream as Readable;
  archive.on('error', (error: Error) => output.destroy(error));
  // A reader gone mid-file never takes the rest: waiting for it ends there.
  const closed = new Promise<void>((resolve) => output.once('close', resolve));
  const pump = async () => {
    for await (const entry of entries) {
      if (output.destroyed) return;
      const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
      const taken = new Promise<void>((resolve, reject) => {
        archive.addReadStreamLazy(entry.name.replace(/^\/+/, ''), { mtime: modified }, (open) => {
          const source = Readable.from([data]);
          source.once('end', resolve).once('error', reject);
          open(null, source);
        });
      });
      await Promise.race([taken, closed]);
    }
    if (!output.destroyed) archive.end();
  };
  pump().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
