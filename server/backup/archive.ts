import crypto from "node:crypto";
import fs from "node:fs";
import { once } from "node:events";
import { pipeline } from "node:stream";
import zlib from "node:zlib";

// The archive: gzip'd newline-delimited JSON, one record a line, in this order:
//   header, migrations, (image, chunk*)*, (table, rows*, table-end)*, end
// Format 1 had no table-end records (no per-table checksum); a restore still reads it.
// Plain JSON lines keep it readable with `zcat | head` and independent of the database engine
// (a PGlite backup restores into PostgreSQL). Every value of a row is the database's own text form
// of it (or null), so numerics, timestamps (microseconds), bigints and jsonb come back exactly.
// Images come first so a restore can write them before it opens the one transaction for the rows.

export const FORMAT = "shop-backup";
/** 2: each table's rows are followed by a table-end record with their count and checksum. */
export const VERSION = 2;

export type HeaderRecord = {
  type: "header";
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** Where it was taken: "pglite" or "postgres" (informative; either restores into either). */
  database: string;
  /** A fingerprint of the encryption key (never the key): tells a restore whether the secrets will decrypt. */
  keyId: string | null;
};
export type MigrationsRecord = { type: "migrations"; applied: { hash: string; createdAt: string }[] };
export type ImageRecord = { type: "image"; id: string; contentType: string; size: number; sha256: string };
export type ChunkRecord = { type: "chunk"; data: string };
export type TableRecord = { type: "table"; name: string; columns: string[]; count: number };
export type RowsRecord = { type: "rows"; rows: (string | null)[][] };
/** After a table's rows (format 2 on): how many there are and their createRowsChecksum. */
export type TableEndRecord = { type: "table-end"; name: string; count: number; checksum: string };
export type EndRecord = { type: "end"; tables: number; rows: number; images: number };
export type BackupRecord = HeaderRecord | MigrationsRecord | ImageRecord | ChunkRecord | TableRecord | RowsRecord | TableEndRecord | EndRecord;

/** A problem with the archive or the restore target that the operator can act on: one clear sentence. */
export class BackupError extends Error {}

/**
 * The checksum of a table's rows, the same on both sides: the backup computes it over the rows it
 * writes and compares it with the one the database computes in the same snapshot (backup.ts
 * tableChecksum, which must stay in step with this), and a restore computes it over the rows it reads.
 * Each row's digest is the first 8 bytes, as a signed big-endian integer, of the SHA-256 of the row's
 * canonical JSON (JSON.stringify of its text values in the archive's column order); the checksum is the
 * sum of the digests modulo 2^64, as 16 hex digits. A sum rather than a hash of the rows in order, so
 * the database can compute it in one pass without holding the table; with the count it still tells
 * a skipped row and a doubled one apart from the right rows (docs/SECURITY.md, "Backups").
 */
export function createRowsChecksum(): { add(row: unknown[]): void; value(): string } {
  let sum = 0n;
  return {
    add(row) {
      sum += crypto.createHash("sha256").update(JSON.stringify(row)).digest().readBigInt64BE(0);
    },
    value: () => checksumText(sum),
  };
}

/** A sum of row digests (from JavaScript or from the database's numeric sum) as the archive writes it. */
export function checksumText(sum: bigint): string {
  return BigInt.asUintN(64, sum).toString(16).padStart(16, "0");
}

/** Bytes of an image per chunk record, so a line (and memory) stays small whatever the image. */
export const CHUNK_BYTES = 512 * 1024;
/** Longer lines than any record we write mean garbage: refuse instead of buffering without end. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export type ArchiveWriter = {
  write(record: BackupRecord): Promise<void>;
  /** Flushes and closes the file; resolves once every byte is on disk. */
  finish(): Promise<void>;
  /** Stops writing after a failure (the caller removes the file). */
  abort(): Promise<void>;
};

export function createArchiveWriter(file: string): ArchiveWriter {
  const gzip = zlib.createGzip();
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  let failure: Error | null = null;
  const done = new Promise<void>((resolve, reject) => {
    pipeline(gzip, out, (error) => {
      if (error) {
        failure = error;
        reject(error);
      } else resolve();
    });
  });
  // Observed by finish(); this keeps an early failure from being an unhandled rejection meanwhile.
  done.catch(() => {});
  return {
    async write(record) {
      if (failure) throw failure;
      // Waiting for "drain" keeps memory bounded when the database reads faster than the disk writes.
      if (!gzip.write(`${JSON.stringify(record)}\n`)) await Promise.race([once(gzip, "drain"), done]);
    },
    async finish() {
      gzip.end();
      await done;
    },
    async abort() {
      gzip.destroy();
      await done.catch(() => {});
    },
  };
}

/** The records of an archive, in order. Rejects with a BackupError when the file is not a whole, readable archive. */
export async function* readArchive(file: string): AsyncGenerator<BackupRecord> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const gunzip = pipeline(fs.createReadStream(file), zlib.createGunzip(), () => {});
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const parse = (line: Buffer): BackupRecord => {
    lineNumber++;
    try {
      const record = JSON.parse(line.toString("utf8")) as BackupRecord;
      if (typeof record !== "object" || record === null || typeof record.type !== "string") throw new Error("no record type");
      return record;
    } catch {
      throw new BackupError(`${file} is damaged: line ${lineNumber} is not a backup record.`);
    }
  };
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let start = 0;
      let newline = chunk.indexOf(10);
      while (newline !== -1) {
        pending.push(chunk.subarray(start, newline));
        yield parse(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
        newline = chunk.indexOf(10, start);
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) throw new BackupError(`${file} is damaged: a record is too long.`);
      }
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR" || code === "ERR_STREAM_PREMATURE_CLOSE") {
      // "unexpected end of file" (a cut-off copy) or "incorrect header check" (not gzip at all).
      throw new BackupError(`${file} is not a complete shop backup (${(error as Error).message}).`);
    }
    throw error;
  }
  if (pendingBytes > 0) throw new BackupError(`${file} is damaged: it ends in the middle of a record.`);
}
