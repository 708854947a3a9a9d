/**
 * Why a file could not be read, for an error message: `no such file`, `is a
 * directory` (or the caller's word for it), else the error's code or text.
 */
export function unreadableReason(cause: unknown, isDirectory = 'is a directory'): string {
  const code = (cause as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return isDirectory;
  return code ?? String(cause);
}
