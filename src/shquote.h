/* Suggested commands in hints: every word the user gave (a pool, a path, a
 * client name) quoted for a POSIX shell, so a hint pasted as it stands runs
 * the command it names and nothing else. */
#ifndef CB_SHQUOTE_H
#define CB_SHQUOTE_H

#include <stddef.h>

/* Room for a hint's command: a few flags with a pool, a client and paths. */
#define CB_SH_CMD_MAX 1536

/* What stands for a command that does not fit: a comment, which a shell
 * it is pasted into runs nothing of. */
#define CB_SH_TOO_LONG "# (a command too long to print here)"

/* Append word to the command line in buf (n bytes, NUL-terminated), after a
 * space unless buf is empty: as it is when it holds only characters no shell
 * treats specially (letters, digits, _ @ % + = : , . / -), else in single
 * quotes with each ' written '\''. Returns 0, or -ENOSPC with buf unchanged
 * when it does not fit. */
int cb_sh_append(char *buf, size_t n, const char *word);

/* buf (n bytes) set to the NULL-terminated words as one command line, each
 * appended by cb_sh_append; returns buf. When they do not all fit, buf holds
 * CB_SH_TOO_LONG: a cut command could run another one (the same cleanup
 * without its --conf goes to another cluster). */
const char *cb_sh_join(char *buf, size_t n, const char *const *words);

/* cb_sh_join into the array buf from a list of words, e.g.
 * CB_SH_CMD(cmd, "ceph", "osd", "pool", "create", pool). */
#define CB_SH_CMD(buf, ...) cb_sh_join((buf), sizeof(buf), (const char *const[]){__VA_ARGS__, NULL})

#endif
