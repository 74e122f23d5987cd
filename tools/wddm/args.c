/* The command line's rules (issue 14 §4, docs/rules/tool.md), shared by every subcommand:
 * -h/--help prints the command's usage on stdout and exits 0; a usage error (an unknown
 * command or option, a missing or extra argument, a number that is negative, too large,
 * garbage, has trailing junk or is zero where zero means nothing) prints ONE line on stderr
 * and exits 2, before any work starts. Exit 1 stays "the work failed". */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

int wddm_tool_usage_error(const char *cmd, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "wddm%s%s: %s (see 'wddm%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "", line,
            cmd ? " " : "", cmd ? cmd : "");
    return WDDM_TOOL_USAGE;
}

int wddm_tool_parse_u64(const char *cmd, const char *what, const char *text, uint64_t min, uint64_t max,
                        uint64_t *out)
{
    /* strtoull alone takes "-1" as ULLONG_MAX, " 7" and "+7" as 7 and "7x" as 7: only plain
     * decimal digits are a number here. */
    if (text[0] == '-')
        return wddm_tool_usage_error(cmd, "%s '%.40s' is negative", what, text);
    const char *p = text;
    while (*p >= '0' && *p <= '9')
        p++;
    if (!*text || *p)
        return wddm_tool_usage_error(cmd, "%s '%.40s' is not a number", what, text);
    errno = 0;
    unsigned long long v = strtoull(text, NULL, 10);
    if (errno == ERANGE || v < min || v > max)
        return wddm_tool_usage_error(cmd, "%s '%.40s' is out of range %llu..%llu", what, text,
                                     (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

int wddm_tool_options(const char *cmd, const char *usage, int argc, char **argv, const struct option *extra,
                      int (*on_option)(int opt, const char *arg, void *ctx), void *ctx, int *first_arg)
{
    /* --help / -h for every command, then the command's own long options; one whose value is a
     * lower-case letter has that short form too (-o FILE for --output FILE). */
    struct option opts[8];
    char shorts[3 + 2 * 7 + 1] = "+:h";
    size_t n = 0, k = 3;
    opts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    for (; extra && extra[n - 1].name && n < 7; n++) {
        opts[n] = extra[n - 1];
        if (opts[n].val >= 'a' && opts[n].val <= 'z' && opts[n].val != 'h') {
            shorts[k++] = (char)opts[n].val;
            if (opts[n].has_arg == required_argument)
                shorts[k++] = ':';
        }
    }
    shorts[k] = '\0';
    opts[n] = (struct option){0};
    opterr = 0; /* our own one-line messages */
    optind = 1;
    int c;
    /* "-5" is a negative number, not an option: it stops the options, and the command's number
     * parser says what is wrong with it. */
    while (!(optind < argc && argv[optind][0] == '-' && isdigit((unsigned char)argv[optind][1])) &&
           (c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            return WDDM_TOOL_HELP;
        }
        if (c == '?')
            return optopt && optopt != 'h' && isprint(optopt)
                       ? wddm_tool_usage_error(cmd, "unknown option '-%c'", optopt)
                       : wddm_tool_usage_error(cmd, "unknown option '%.40s'", argv[optind - 1]);
        if (c == ':')
            return wddm_tool_usage_error(cmd, "option '%.40s' needs a value", argv[optind - 1]);
        int rc = on_option(c, optarg, ctx);
        if (rc)
            return rc;
    }
    *first_arg = optind;
    return 0;
}
