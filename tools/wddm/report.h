/* report.h - what a command prints at its end, as text for a person or as one JSON object for
 * a script (--json, issue 18 §2): the same fields in both, named once. */
#ifndef WDDM_TOOL_REPORT_H
#define WDDM_TOOL_REPORT_H

#include <stdbool.h>
#include <stdint.h>

struct wddm_memory_statistics;

struct wddm_report {
    bool json;
    bool any; /* a JSON field was written: the next one needs a comma */
};

/* JSON: opens the object with "command". Text: nothing (the command prints its headline). */
void wddm_report_begin(struct wddm_report *r, const char *command);
/* A counter: text "  label  value"; JSON "label_as_key": value (lower case, '_' for the rest). */
void wddm_report_u64(struct wddm_report *r, const char *label, uint64_t v);
/* A measured value that only the JSON carries (text puts it in the headline). */
void wddm_report_f64(struct wddm_report *r, const char *label, double v);
/* The segments of one adapter: text one line each; JSON "segments": [...]. */
void wddm_report_segments(struct wddm_report *r, const struct wddm_memory_statistics *s);
/* A JSON string literal of s on stdout: quotes, backslashes and control bytes escaped (paths,
 * refusal texts). */
void wddm_report_json_string(const char *s);
/* JSON: "ok" and closes the object. Text: "wddm <command>: <ok_text or FAILED>". */
void wddm_report_end(struct wddm_report *r, const char *command, bool ok, const char *ok_text);

#endif
