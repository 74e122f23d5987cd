/* wddm trace: runs a command with the timeline on and writes it (issue 18 §1; docs/timeline.md).
 * The command is any program linked with libwddm (`wddm demo`, a test, an application): the
 * library reads WDDM_TRACE / WDDM_TRACE_HTML when it loads and writes the files when the
 * program exits, so this command only sets them and runs it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

static const char trace_usage[] =
    "usage: wddm trace [-o FILE.json] [--html FILE.html] -- COMMAND [ARGS...]\n"
    "  runs COMMAND (a program linked with libwddm, e.g. 'wddm demo 60') with the timeline on and\n"
    "  writes what every engine, context queue, VidMm and CPU thread did: Chrome / Perfetto\n"
    "  trace-event JSON (-o; default wddm.trace.json when --html is not given) and/or a\n"
    "  self-contained HTML view (--html). Exit status: COMMAND's, 2 for a usage error.\n";

struct trace_opts {
    const char *json, *html;
};

static int trace_option(int opt, const char *arg, void *ctx)
{
    struct trace_opts *o = ctx;
    if (!*arg)
        return wddm_tool_usage_error("trace", "%s needs a file name", opt == 'o' ? "-o" : "--html");
    if (opt == 'o')
        o->json = arg;
    else
        o->html = arg;
    return 0;
}

int wddm_tool_trace(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"html", required_argument, NULL, 'H'}, {0}};
    struct trace_opts o = {0};
    int first;
    int rc = wddm_tool_options("trace", trace_usage, argc, argv, opts, trace_option, &o, &first);
    if (rc)
        return rc;
    if (first >= argc)
        return wddm_tool_usage_error("trace", "no command to run (wddm trace [options] -- COMMAND)");
    if (!o.json && !o.html)
        o.json = "wddm.trace.json";
    if (o.json)
        setenv("WDDM_TRACE", o.json, 1);
    else
        unsetenv("WDDM_TRACE");
    if (o.html)
        setenv("WDDM_TRACE_HTML", o.html, 1);
    else
        unsetenv("WDDM_TRACE_HTML");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "wddm trace: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(argv[first], argv + first);
        fprintf(stderr, "wddm trace: cannot run '%s': %s\n", argv[first], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    if (!WIFEXITED(status)) {
        fprintf(stderr, "wddm trace: '%s' ended by signal %d; no timeline written\n", argv[first],
                WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return 1;
    }
    if (WEXITSTATUS(status) == 0)
        fprintf(stderr, "wddm trace: timeline written to%s%s%s%s\n", o.json ? " " : "", o.json ? o.json : "",
                o.html ? " " : "", o.html ? o.html : "");
    return WEXITSTATUS(status);
}
