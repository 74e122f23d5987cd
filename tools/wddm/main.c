/* wddm: the command-line tool. `wddm demo` is the main job (a realistic frame loop with
 * verified readback), `wddm info` prints the adapter, `wddm bench` the benchmarks. Exit codes:
 * 0 done, 1 the work failed, 2 a usage error (tools/wddm/args.c, docs/rules/tool.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/wddm.h>

#include "tool.h"

static const char usage[] =
    "usage: wddm <command> [args]     (wddm <command> --help for one command)\n"
    "       wddm [--umd PATH] [--kmd PATH] <command> [args]\n"
    "  demo [frames]   frame loop: dynamic uploads, UpdateSubresource, GPU copies, verified readback\n"
    "  info [--caps FILE]\n"
    "                  the adapter: driver caps, every DXGK_VIDMMCAPS bit, the segments\n"
    "  bench [quick] [W1 W2 W3 U1 V V1 V2 D S A1]\n"
    "                  W1 dynamic upload, W2 1080p readback, U1 UpdateSubresource, W3\n"
    "                  create+release (as ratios to memcpy),\n"
    "                  V VidMm paging, D deferred recording, S scheduling, A1 the segment\n"
    "                  range allocator; names pick groups\n"
    "  soak [ops] [local-MiB]  a working set of 4x local memory through GPU copies, evictions and\n"
    "                  restores, every read back checksummed (default 200000 ops, 4 MiB local)\n"
    "  trace [-o FILE.json] [--html FILE.html] -- COMMAND [ARGS...]\n"
    "                  run COMMAND with the timeline on and write it (Perfetto JSON, HTML view)\n"
    "  stats [--json]  every adapter's memory: segments used, free, largest free range\n"
    "  check [--json]  the conformance checks of the adapter's drivers (with --umd / --kmd: yours)\n"
    "  --version       the version of libwddm this tool is built with\n"
    "  --umd PATH      open the adapter through the UMD module PATH (exports OpenAdapter10_2 and\n"
    "                  OpenAdapter10), as WDDM_UMD=PATH does; PATH:PATH2... one per adapter\n"
    "  --kmd PATH      start the adapter with the KMD module PATH (exports DriverEntry), as\n"
    "                  WDDM_KMD=PATH does; PATH:PATH2... one per adapter\n"
    "exit status: 0 done, 1 the work failed, 2 a usage error\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"demo", wddm_tool_demo},
    {"info", wddm_tool_info},
    {"bench", wddm_tool_bench},
    {"soak", wddm_tool_soak},
    {"trace", wddm_tool_trace},
    {"stats", wddm_tool_stats},
    {"check", wddm_tool_check},
};

/* --umd / --kmd before the command: the modules every adapter of this run loads (docs/drivers.md).
 * Returns how many arguments they took, or -1 after a usage error. */
static int driver_options(int argc, char **argv)
{
    int i = 1;
    while (i < argc && (strcmp(argv[i], "--umd") == 0 || strcmp(argv[i], "--kmd") == 0)) {
        if (i + 1 >= argc || !argv[i + 1][0]) {
            wddm_tool_usage_error(NULL, "%s needs a module path", argv[i]);
            return -1;
        }
        setenv(strcmp(argv[i], "--umd") == 0 ? "WDDM_UMD" : "WDDM_KMD", argv[i + 1], 1);
        i += 2;
    }
    return i - 1;
}

int main(int argc, char **argv)
{
    int taken = driver_options(argc, argv);
    if (taken < 0)
        return 2;
    argc -= taken;
    argv += taken;
    if (argc < 2)
        return wddm_tool_usage_error(NULL, "no command given");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("wddm (libwddm) %s\n", wddm_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int rc = commands[i].run(argc - 1, argv + 1);
            return rc == WDDM_TOOL_HELP ? 0 : rc;
        }
    if (argv[1][0] == '-')
        return wddm_tool_usage_error(NULL, "unknown option '%.40s'", argv[1]);
    return wddm_tool_usage_error(NULL, "unknown command '%.40s'", argv[1]);
}
