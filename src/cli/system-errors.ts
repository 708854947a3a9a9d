// The operating system's complaints (ENOENT, EACCES, EADDRINUSE, …) said in one line
// that names the path or port and the flag it came from, as an `IoError`
// (FC_ERR_IO, exit status 1) instead of a stack trace. Commands wrap the work a
// flag's file or port takes part in (`withFlag`); `main` says the rest (`systemErrorText`).
import { IoError, isFocusCrawlError } from '../errors/index.js';

/** What each error code means, in the words of the line printed. */
const WHY: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EEXIST: 'it already exists',
  ENOTEMPTY: 'the folder is not empty',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file is too large',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many levels of symbolic links',
  EBUSY: 'the file or folder is busy',
  EXDEV: 'it is on another device',
  EIO: 'input/output error',
  EADDRINUSE: 'the port is in use',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  EPIPE: 'the reader went away',
};

/** What a system call failed to do, before the path it names. */
const DOING: Readonly<Record<string, string>> = {
  open: 'cannot open',
  read: 'cannot read',
  write: 'cannot write',
  mkdir: 'cannot create the folder',
  rmdir: 'cannot remove the folder',
  unlink: 'cannot remove',
  rm: 'cannot remove',
  rename: 'cannot rename',
  scandir: 'cannot list the folder',
  opendir: 'cannot list the folder',
  stat: 'cannot read',
  lstat: 'cannot read',
  access: 'cannot use',
  copyfile: 'cannot copy',
  listen: 'cannot listen on',
  bind: 'cannot listen on',
};

/** A system error as far as it is told here. */
export interface SystemError {
  /** `ENOENT`, `EACCES`, … */
  code: string;
  /** `open`, `mkdir`, `listen`, … when known. */
  syscall?: string;
  /** The file or folder concerned, when there is one. */
  path?: string;
  /** A rename's target. */
  dest?: string;
  /** `HOST:PORT` of a socket that could not be bound. */
  address?: string;
}

const CODE = /^E[A-Z0-9]+$/;
/** `EACCES: permission denied, open '/x/y'` (and `… rename '/a' -> '/b'`). */
const FS_MESSAGE = /^(E[A-Z0-9]+): [^,]*, (\w+) '([^']*)'(?: -> '([^']*)')?/;
/** `listen EADDRINUSE: address already in use 127.0.0.1:8080`. */
const NET_MESSAGE = /^(\w+) (E[A-Z0-9]+): .*?(\S+:\d+)$/;

function fromNode(
  e: NodeJS.ErrnoException & { address?: unknown; port?: unknown; dest?: unknown },
) {
  const s: SystemError = { code: e.code as string };
  if (typeof e.syscall === 'string') s.syscall = e.syscall;
  if (typeof e.path === 'string') s.path = e.path;
  if (typeof e.dest === 'string') s.dest = e.dest;
  if (typeof e.address === 'string' && typeof e.port === 'number') {
    s.address = `${e.address}:${e.port}`;
  }
  return s;
}

/**
 * The system error `e` is, read from its `code` (and `syscall`, `path`), or from its
 * message when it crossed a thread and lost them; undefined for any other error.
 */
export function systemErrorOf(e: unknown): SystemError | undefined {
  if (!(e instanceof Error) || isFocusCrawlError(e)) return undefined;
  const n = e as NodeJS.ErrnoException;
  if (typeof n.code === 'string' && CODE.test(n.code) && n.code in WHY) {
    const s = fromNode(n);
    if (s.path === undefined && s.address === undefined) {
      const m = FS_MESSAGE.exec(e.message);
      if (m) Object.assign(s, { syscall: m[2], path: m[3], ...(m[4] ? { dest: m[4] } : {}) });
    }
    return s;
  }
  const fs = FS_MESSAGE.exec(e.message);
  if (fs && (fs[1] as string) in WHY) {
    return {
      code: fs[1] as string,
      syscall: fs[2] as string,
      path: fs[3] as string,
      ...(fs[4] ? { dest: fs[4] } : {}),
    };
  }
  const net = NET_MESSAGE.exec(e.message);
  if (net && (net[2] as string) in WHY) {
    return { code: net[2] as string, syscall: net[1] as string, address: net[3] as string };
  }
  return undefined;
}

/**
 * The system error of `e`, or of its cause when `e` is an error that only wraps one
 * (`cannot write FILE: EACCES …`); undefined otherwise.
 */
export function systemCauseOf(e: unknown): SystemError | undefined {
  const own = systemErrorOf(e);
  if (own !== undefined) return own;
  if (isFocusCrawlError(e) && e.code === 'FC_ERR_INVALID_OPTION') return systemErrorOf(e.cause);
  return undefined;
}

/** Where a flag's value came from: the flag (`--out`) and what it was given. */
export interface FlagSource {
  flag: string;
  value: string;
}

/** A hint after the reason, for the errors a user has one obvious move against. */
function hint(s: SystemError, source: FlagSource | undefined): string {
  if (s.code === 'EADDRINUSE' && source !== undefined) {
    return `: give another ${source.flag}, or ${source.flag} 0 for any free port`;
  }
  if (s.address !== undefined && s.code === 'EACCES') {
    return ': ports below 1024 need privileges; give another port';
  }
  if (s.code === 'EACCES' || s.code === 'EPERM') return ': check who owns it and its permissions';
  return '';
}

/**
 * One line for `s`: `--out r.html: cannot open r.html.tmp: permission denied (EACCES)`,
 * or without a flag `cannot open /x/r.html.tmp: permission denied (EACCES)`.
 */
export function systemErrorText(s: SystemError, source?: FlagSource): string {
  const doing = DOING[s.syscall ?? ''] ?? (s.syscall ? `${s.syscall} failed on` : 'cannot use');
  const what = s.address ?? s.path;
  const target =
    what === undefined
      ? ''
      : source !== undefined && what === source.value
        ? ` ${doing} it`
        : ` ${doing} ${what}${s.dest !== undefined ? ` to ${s.dest}` : ''}`;
  const why = `${WHY[s.code] ?? 'failed'} (${s.code})${hint(s, source)}`;
  const head = source === undefined ? '' : `${source.flag} ${source.value}:`;
  if (target === '') return source === undefined ? why : `${head} ${why}`;
  return `${head}${target}: ${why}`.trimStart();
}

/** `e` as an `IoError` naming `source` when it is (or wraps) a system error; else `e`. */
export function asIoError(e: unknown, source?: FlagSource): unknown {
  const s = systemCauseOf(e);
  if (s === undefined) return e;
  return new IoError(systemErrorText(s, source), { cause: e });
}

/**
 * Runs `work`, in which `flag`'s file, folder or port `value` is used; a system error
 * it throws becomes an `IoError` naming the flag, the path or port and why.
 */
export async function withFlag<T>(
  flag: string,
  value: string,
  work: () => T | Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw asIoError(e, { flag, value });
  }
}

/** `withFlag` for synchronous work. */
export function withFlagSync<T>(flag: string, value: string, work: () => T): T {
  try {
    return work();
  } catch (e) {
    throw asIoError(e, { flag, value });
  }
}
