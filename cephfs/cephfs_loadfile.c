/* dbench's loadfile format (see cephfs_priv.h): one operation a line,
 * "[TIME] OP ARGS... STATUS", paths quoted with backslashes, the status
 * NT_STATUS_* or a 0x number. Parsed strictly: a line that does not parse
 * is an error naming it, never skipped. */
#include "cephfs_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dbench's operations (its nb_ops table) and their arguments after the
 * name: P a path, I a number. Sleep, LockX and UnlockX have no call here:
 * counted as not replayed. */
const struct cfs_lop_def cfs_lops[CFS_LOP_N] = {
    [CFS_LOP_NTCREATEX] = {"NTCreateX", "PIII", true},
    [CFS_LOP_CLOSE] = {"Close", "I", true},
    [CFS_LOP_RENAME] = {"Rename", "PP", true},
    [CFS_LOP_UNLINK] = {"Unlink", "PI", true},
    [CFS_LOP_DELTREE] = {"Deltree", "P", true},
    [CFS_LOP_MKDIR] = {"Mkdir", "P", true},
    [CFS_LOP_RMDIR] = {"Rmdir", "P", true},
    [CFS_LOP_QPATHINFO] = {"QUERY_PATH_INFORMATION", "PI", true},
    [CFS_LOP_QFILEINFO] = {"QUERY_FILE_INFORMATION", "II", true},
    [CFS_LOP_QFSINFO] = {"QUERY_FS_INFORMATION", "I", true},
    [CFS_LOP_SFILEINFO] = {"SET_FILE_INFORMATION", "II", true},
    [CFS_LOP_FINDFIRST] = {"FIND_FIRST", "PIII", true},
    [CFS_LOP_WRITEX] = {"WriteX", "IIII", true},
    [CFS_LOP_READX] = {"ReadX", "IIII", true},
    [CFS_LOP_FLUSH] = {"Flush", "I", true},
    [CFS_LOP_LOCKX] = {"LockX", "III", false},
    [CFS_LOP_UNLOCKX] = {"UnlockX", "III", false},
    [CFS_LOP_SLEEP] = {"Sleep", "I", false},
};

/* The next space-separated token of *p (a quoted one whole, without its
 * quotes) into tok; false at the line's end, -1 into *bad for an
 * unclosed quote. */
static bool token(char **p, char **tok, int *bad)
{
	char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return false;
	if (*s == '"') {
		char *e = strchr(s + 1, '"');
		if (!e) {
			*bad = -1;
			return false;
		}
		*e = '\0';
		*tok = s + 1;
		*p = e + 1;
		return true;
	}
	*tok = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return true;
}

/* A loadfile path as one under the client's directory: backslashes turned
 * to slashes, the leading one dropped ("\clients\client1" is
 * "clients/client1"; "\" is "."); no ".." component, which would leave the
 * client's directory for names the run did not make. */
static int to_path(const char *in, char *out, size_t n, char *why, size_t wn)
{
	size_t k = 0;
	while (*in == '\\' || *in == '/')
		in++;
	for (; *in; in++) {
		if (k + 1 >= n) {
			snprintf(why, wn, "a path longer than %zu bytes", n - 1);
			return -EINVAL;
		}
		out[k++] = *in == '\\' ? '/' : *in;
	}
	out[k] = '\0';
	if (!k)
		snprintf(out, n, ".");
	for (const char *c = out; c; c = strchr(c, '/')) {
		c += *c == '/';
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || !c[2])) {
			snprintf(why, wn, "path '%.64s' leaves the client's directory (..)", out);
			return -EINVAL;
		}
	}
	return 0;
}

int cfs_line_parse(char *text, struct cfs_line *l, char *why, size_t n)
{
	char *p = text, *tok, *tokens[12];
	int bad = 0, nt = 0;
	text[strcspn(text, "\r\n")] = '\0';
	while (nt < 12 && token(&p, &tok, &bad))
		tokens[nt++] = tok;
	l->op = -1;
	if (bad) {
		snprintf(why, n, "a quoted path is not closed");
		return -EINVAL;
	}
	if (nt == 0 || tokens[0][0] == '#')
		return 0; /* blank or a comment */
	if (nt == 12) {
		snprintf(why, n, "more than 11 fields");
		return -EINVAL;
	}
	int i = 0;
	l->t = -1;
	if (isdigit((unsigned char)tokens[0][0]) || tokens[0][0] == '.') {
		char *e;
		l->t = strtod(tokens[0], &e);
		if (*e || !(l->t >= 0 && l->t < 1e9)) {
			snprintf(why, n, "'%.32s' is not a time in seconds", tokens[0]);
			return -EINVAL;
		}
		i++;
	}
	if (i >= nt) {
		snprintf(why, n, "a time and no operation");
		return -EINVAL;
	}
	int op = 0;
	while (op < CFS_LOP_N && strcmp(cfs_lops[op].name, tokens[i]) != 0)
		op++;
	if (op == CFS_LOP_N) {
		snprintf(why, n,
			 "unknown operation '%.40s' (dbench's SMB operations: NTCreateX, "
			 "ReadX, WriteX, Close, ...)",
			 tokens[i]);
		return -EINVAL;
	}
	const char *args = cfs_lops[op].args;
	int want = (int)strlen(args);
	if (nt - i - 1 != want + 1) {
		snprintf(why, n,
			 "%s takes %d argument%s and a status, %d fields after its name, not %d",
			 cfs_lops[op].name, want, want == 1 ? "" : "s", want + 1, nt - i - 1);
		return -EINVAL;
	}
	const char *status = tokens[nt - 1];
	if (strncmp(status, "NT_STATUS_", 10) != 0 && strncmp(status, "0x", 2) != 0) {
		snprintf(why, n, "'%.40s' is not a status (NT_STATUS_OK, NT_STATUS_..., 0x...)",
			 status);
		return -EINVAL;
	}
	snprintf(l->status, sizeof(l->status), "%.*s", (int)sizeof(l->status) - 1, status);
	l->ok = strcmp(status, "NT_STATUS_OK") == 0 || strcmp(status, "0x00000000") == 0 ||
		strcmp(status, "0x0") == 0;
	int np = 0, ni = 0;
	for (int a = 0; a < want; a++) {
		const char *t = tokens[i + 1 + a];
		if (args[a] == 'P') {
			if (to_path(t, l->path[np++], sizeof(l->path[0]), why, n) < 0)
				return -EINVAL;
			continue;
		}
		char *e;
		errno = 0;
		long long v = strtoll(t, &e, 0);
		if (*e || errno || v < 0) {
			snprintf(why, n, "%s: '%.32s' is not a whole number", cfs_lops[op].name, t);
			return -EINVAL;
		}
		l->arg[ni++] = (uint64_t)v;
	}
	l->op = op;
	return 0;
}

/* One line of f into buf (size bytes), its length in *len: fgets cannot
 * tell a NUL byte from the end of what it read, so a NUL in a line looked
 * like a line cut at the buffer's end. Returns 1 for a line, 0 at the end,
 * -E2BIG for a line that does not fit, -EILSEQ for a NUL in it (the rest
 * of the line read either way). */
static int scan_line(FILE *f, char *buf, size_t size, size_t *len)
{
	size_t k = 0;
	bool nul = false, big = false;
	int c;
	while ((c = getc(f)) != EOF) {
		nul |= c == '\0';
		if (k + 1 < size)
			buf[k++] = (char)c;
		else
			big = true;
		if (c == '\n')
			break;
	}
	buf[k] = '\0';
	*len = k;
	if (c == EOF && k == 0)
		return 0;
	return nul ? -EILSEQ : big ? -E2BIG : 1;
}

int cfs_loadfile_scan(const char *path, struct cfs_load_info *info, char *why, size_t n)
{
	FILE *f = fopen(path, "re");
	char line[CFS_LINE_MAX + 2], reason[160];
	*info = (struct cfs_load_info){0};
	if (!f) {
		snprintf(why, n, "loadfile %s: %s", path, strerror(errno));
		return -EINVAL;
	}
	int r = 0, got;
	unsigned no = 0;
	size_t len;
	while (r == 0 && (got = scan_line(f, line, sizeof(line), &len)) != 0) {
		struct cfs_line l;
		no++;
		if (got == -EILSEQ) {
			snprintf(why, n, "%s:%u: the line holds a NUL byte: a loadfile is text",
				 path, no);
			r = -EINVAL;
		} else if (got == -E2BIG || (len == sizeof(line) - 1 && line[len - 1] != '\n')) {
			snprintf(why, n, "%s:%u: a line longer than %d bytes", path, no,
				 CFS_LINE_MAX);
			r = -EINVAL;
		} else if (cfs_line_parse(line, &l, reason, sizeof(reason)) < 0) {
			snprintf(why, n, "%s:%u: %s", path, no, reason);
			r = -EINVAL;
		} else if (l.op >= 0) {
			info->lines++;
			info->ops |= 1u << l.op;
			if (l.t >= 0)
				info->timed = true;
			else
				info->untimed = true;
			if ((l.op == CFS_LOP_READX || l.op == CFS_LOP_WRITEX) &&
			    l.arg[2] > info->max_io)
				info->max_io = l.arg[2];
			if ((l.op == CFS_LOP_READX || l.op == CFS_LOP_WRITEX) &&
			    l.arg[2] > CFS_REPLAY_MAX_IO) {
				snprintf(why, n, "%s:%u: %s of %llu bytes: at most %d", path, no,
					 cfs_lops[l.op].name, (unsigned long long)l.arg[2],
					 CFS_REPLAY_MAX_IO);
				r = -EINVAL;
			}
		}
	}
	if (r == 0 && ferror(f)) {
		snprintf(why, n, "loadfile %s: %s", path, strerror(errno));
		r = -EINVAL;
	}
	if (r == 0 && !info->lines) {
		snprintf(why, n, "loadfile %s holds no operation", path);
		r = -EINVAL;
	}
	fclose(f);
	return r;
}
