/* Shell quoting of the commands hints suggest (see shquote.h). */
#include "shquote.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The characters that mean nothing to sh, bash, dash or zsh in a word that
 * is not the command's first (Python's shlex.quote keeps the same set), but
 * for a leading '=', which zsh expands to a command's path. */
static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			   "_@%+=:,./-";

int cb_sh_append(char *buf, size_t n, const char *word)
{
	size_t len = strnlen(buf, n), at = len;
	bool plain = *word && *word != '=' && word[strspn(word, safe)] == '\0';
	size_t need = (len ? 1 : 0) + strlen(word) + (plain ? 0 : 2);
	for (const char *c = word; !plain && *c; c++)
		need += *c == '\'' ? 3 : 0;
	if (len >= n || need >= n - len)
		return -ENOSPC;
	if (len)
		buf[at++] = ' ';
	if (!plain)
		buf[at++] = '\'';
	for (const char *c = word; *c; c++) {
		if (*c == '\'' && !plain) { /* close, an escaped quote, reopen */
			memcpy(buf + at, "'\\''", 4);
			at += 4;
		} else {
			buf[at++] = *c;
		}
	}
	if (!plain)
		buf[at++] = '\'';
	buf[at] = '\0';
	return 0;
}

const char *cb_sh_join(char *buf, size_t n, const char *const *words)
{
	if (!n)
		return "";
	buf[0] = '\0';
	for (; *words; words++) {
		if (cb_sh_append(buf, n, *words) < 0) {
			snprintf(buf, n, "%s", CB_SH_TOO_LONG);
			break;
		}
	}
	return buf;
}
