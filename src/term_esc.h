/* Text from files (result records, histories) shown on a terminal: every
 * byte a terminal could act on is shown as text instead, so a name holding
 * ESC [2J cannot clear the screen or set the window title. */
#ifndef CB_TERM_ESC_H
#define CB_TERM_ESC_H

#include <stddef.h>
#include <stdio.h>

/* The rule, the same in every printer: a C0 control (below 0x20, newline
 * and tab included), DEL and a byte that is not part of valid UTF-8 become
 * \xHH (four characters: "\x1b"); a C1 control (U+0080-U+009F, which some
 * terminals obey as ESC sequences) becomes \u00HH; '\' becomes "\\", so the
 * text reads back unambiguously. Everything else, other UTF-8 included, is
 * kept as is. */

/* Write s escaped to out, padded with spaces to width characters (0: no
 * padding), left-aligned like printf's %-*s. Returns the characters
 * written before the padding. */
size_t cb_esc_fputs(FILE *out, const char *s, size_t width);

/* s escaped into buf (always NUL-terminated), for a message: cut to fit n
 * bytes, with "..." at the end when it was cut. Returns buf. */
const char *cb_esc_str(const char *s, char *buf, size_t n);

/* s as one RFC 4180 CSV field written to out: escaped as above (so no CR or
 * LF is left in it), then quoted, with '"' doubled, when it holds ',' or
 * '"'. Text that starts with '=', '+', '-', '@', tab or CR (a formula to a
 * spreadsheet) is quoted with a single quote first: "'=1+1". */
void cb_esc_csv(FILE *out, const char *s);

struct json_t;
/* A JSON scalar as one CSV field: a string as cb_esc_csv writes it, a
 * number as JSON has it (reals to 15 digits, a negative one unguarded:
 * it is a number to the spreadsheet too), true/false as 1/0, null or
 * anything else as an empty field. */
void cb_esc_csv_json(FILE *out, const struct json_t *v);

/* Every string in the JSON tree v (object keys too) that holds something a
 * terminal could act on replaced by its escaped form, so that a renderer
 * of a record from a file (cephbench report's text) prints it as text;
 * the other strings are left as they are, backslashes and all, so a clean
 * record prints as its run printed it. 0 or -ENOMEM. */
int cb_esc_json(struct json_t *v);

#endif
