/* Telemetry's core (tm_core.h): the notes, the backoff of targets that
 * did not answer, and a row's section, for the parts and the frame. */
#include "tm_core.h"
#include "clock.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void cb_tm_note(struct cb_tm *tm, const char *fmt, ...)
{
	char s[sizeof(tm->notes[0])];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&tm->notes_mu);
	bool seen = false;
	for (size_t i = 0; i < tm->nnotes && !seen; i++)
		seen = strcmp(tm->notes[i], s) == 0;
	if (!seen && tm->nnotes < CB_TM_MAX_NOTES)
		memcpy(tm->notes[tm->nnotes++], s, sizeof(s));
	pthread_mutex_unlock(&tm->notes_mu);
}

void cb_tm_print_notes(struct cb_tm *tm, FILE *out)
{
	if (!tm || tm->o.quiet)
		return;
	pthread_mutex_lock(&tm->notes_mu);
	for (size_t i = 0; i < tm->nnotes; i++)
		fprintf(out, "telemetry: %s\n", tm->notes[i]);
	pthread_mutex_unlock(&tm->notes_mu);
}

bool cb_tm_backoff_ready(const struct cb_tm_backoff *b, double now)
{
	return now >= b->until;
}

void cb_tm_backoff_failed(struct cb_tm_backoff *b, double now, double first_s)
{
	double w = b->wait > 0 ? b->wait : first_s;
	b->until = now + w;
	b->wait = w * 2 < CB_TM_BACKOFF_MAX_S ? w * 2 : CB_TM_BACKOFF_MAX_S;
}

bool cb_tm_backoff_ok(struct cb_tm_backoff *b)
{
	bool was = b->wait > 0;
	*b = (struct cb_tm_backoff){0};
	return was;
}

/* The monitors' first wait: long enough that a monitor restarting (an
 * election takes a few seconds) is not asked in the middle of it. */
#define MON_FIRST_WAIT_S 5.0

bool cb_tm_mons_away(struct cb_tm *tm)
{
	if (!tm)
		return false;
	pthread_mutex_lock(&tm->mon_mu);
	bool away = !cb_tm_backoff_ready(&tm->mon, cb_now_s());
	pthread_mutex_unlock(&tm->mon_mu);
	return away;
}

void cb_tm_mons_answered(struct cb_tm *tm, int r)
{
	bool failed = r == -ETIMEDOUT, back = false;
	pthread_mutex_lock(&tm->mon_mu);
	if (failed)
		cb_tm_backoff_failed(&tm->mon, cb_now_s(), MON_FIRST_WAIT_S);
	else
		back = cb_tm_backoff_ok(&tm->mon);
	pthread_mutex_unlock(&tm->mon_mu);
	if (failed)
		cb_tm_note(tm,
			   "the monitors did not answer in time: telemetry asks them again after "
			   "a wait, doubling while they stay silent");
	else if (back)
		cb_tm_note(tm, "the monitors answered again: telemetry reads from them again");
}

json_t *cb_tm_notes_json(const struct cb_tm *tm)
{
	if (!tm)
		return NULL;
	pthread_mutex_t *mu = (pthread_mutex_t *)&tm->notes_mu;
	json_t *a = NULL;
	pthread_mutex_lock(mu);
	if (tm->nnotes)
		a = json_array();
	for (size_t i = 0; a && i < tm->nnotes; i++)
		json_array_append_new(a, json_string(tm->notes[i]));
	pthread_mutex_unlock(mu);
	return a;
}

json_t *cb_tm_json_section(json_t *phase, const char *name)
{
	json_t *t = json_object_get(phase, "telemetry");
	if (!t && json_object_set_new(phase, "telemetry", t = json_object()) < 0)
		return NULL;
	json_t *s = json_object_get(t, name);
	if (!s && json_object_set_new(t, name, s = json_object()) < 0)
		return NULL;
	return s;
}
