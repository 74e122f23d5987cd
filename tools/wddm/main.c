/* wddm: the command-line tool. `wddm demo` is the main job (a realistic frame loop with
 * verified readback), `wddm info` prints the adapter, `wddm bench` the benchmarks. */
#include <stdio.h>
#include <string.h>

#include "tool.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: wddm <command> [args]\n"
            "  demo [frames]   frame loop: dynamic uploads, UpdateSubresource, GPU copies, verified readback\n"
            "  info            the adapter: driver caps, every DXGK_VIDMMCAPS bit, the segments\n"
            "  bench [quick] [W1 W2 W3 V V1 V2 D S]\n"
            "                  W1 dynamic upload, W2 1080p readback, W3 create+release (as ratios to memcpy),\n"
            "                  V VidMm paging, D deferred recording, S scheduling; names pick groups\n"
            "  soak [ops] [local-MiB]  a working set of 4x local memory through GPU copies, evictions and\n"
            "                  restores, every read back checksummed (default 200000 ops, 4 MiB local)\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (strcmp(argv[1], "demo") == 0)
        return wddm_tool_demo(argc - 1, argv + 1);
    if (strcmp(argv[1], "info") == 0)
        return wddm_tool_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "bench") == 0)
        return wddm_tool_bench(argc - 1, argv + 1);
    if (strcmp(argv[1], "soak") == 0)
        return wddm_tool_soak(argc - 1, argv + 1);
    return usage();
}
