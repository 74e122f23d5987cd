/* wddm check: the conformance checks for the loaded drivers, the Windows Hardware Lab Kit's idea
 * on Linux (issue 19 §4, docs/drivers.md "Checking a driver"). Runs every check of
 * check_cases.c in order against the first adapter, whichever UMD and KMD serve it (--umd /
 * --kmd, WDDM_UMD / WDDM_KMD, or the built-in ones); a check that needs an earlier one to have
 * passed is skipped. Exit 0 when none failed, 1 when one did. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "report.h"
#include "tool.h"

static const char check_usage[] =
    "usage: wddm check [--json]\n"
    "  run the conformance checks against the first adapter's drivers (wddm --umd PATH --kmd PATH\n"
    "  check for modules loaded by path): adapter start and the verifier, the adapter queries,\n"
    "  the UMD's device, GPU copies of buffers and textures read back, Map(WRITE_DISCARD) renaming,\n"
    "  fence order, a shared resource opened by a second device, two devices on two threads,\n"
    "  preemption by a higher-priority device and, at the granularity the caps claim, in the\n"
    "  middle of a DMA buffer, paging under oversubscription, paging operations in parts\n"
    "  (16 bytes of room offered first), page tables in the GpuMmu model, the second adapter,\n"
    "  and recovery from a forced TDR. Each line names the check's id, its\n"
    "  result and the rule; a failure says what was seen. Exit status 1 if any check failed.\n"
    "  --json  one JSON object: every check with id, rule, result and detail, and the totals\n";

static int check_option(int opt, const char *arg, void *ctx)
{
    (void)opt;
    (void)arg;
    *(bool *)ctx = true;
    return 0;
}

int wddm_tool_check(int argc, char **argv)
{
    static const struct option opts[] = {{"json", no_argument, NULL, 'J'}, {0}};
    bool json = false;
    int first;
    int rc = wddm_tool_options("check", check_usage, argc, argv, opts, check_option, &json, &first);
    if (rc)
        return rc;
    if (first < argc)
        return wddm_tool_usage_error("check", "unexpected argument '%.40s'", argv[first]);
    static const char *const names[] = {"pass", "FAIL", "skip"};
    struct check_env env = {0};
    unsigned count[3] = {0};
    if (json)
        printf("{\"command\":\"check\",\"checks\":[");
    for (size_t i = 0; i < wddm_check_case_count; i++) {
        const struct check_case *c = &wddm_check_cases[i];
        char detail[1200] = "";
        enum check_result r;
        if (i > 0 && !env.started) {
            r = CHECK_SKIP;
            snprintf(detail, sizeof detail, "the adapter did not start");
        } else if (strncmp(c->id, "Adapter.", 8) != 0 && strcmp(c->id, "Umd.Open") != 0 &&
                   !wddm_check_device_usable(&env)) {
            r = CHECK_SKIP;
            snprintf(detail, sizeof detail, "no D3D11 device (Umd.Open failed, or a new one after a lost one)");
        } else {
            r = c->run(&env, detail, sizeof detail);
        }
        count[r]++;
        if (json) {
            printf("%s{\"id\":", i ? "," : "");
            wddm_report_json_string(c->id);
            printf(",\"rule\":");
            wddm_report_json_string(c->rule);
            printf(",\"result\":\"%s\",\"detail\":", r == CHECK_PASS ? "pass" : r == CHECK_FAIL ? "fail" : "skip");
            wddm_report_json_string(detail);
            printf("}");
        } else {
            printf("%-4s  %-22s %s\n", names[r], c->id, c->rule);
            if (*detail)
                printf("      %-22s %s\n", "", detail);
        }
        fflush(stdout);
    }
    if (env.ctx)
        env.ctx->lpVtbl->Release(env.ctx);
    if (env.dev)
        env.dev->lpVtbl->Release(env.dev);
    for (UINT i = 0; i < env.adapters; i++) {
        D3DKMT_CLOSEADAPTER ca = {.hAdapter = i ? env.others[i - 1] : env.adapter};
        D3DKMTCloseAdapter(&ca);
    }
    if (json)
        printf("],\"passed\":%u,\"failed\":%u,\"skipped\":%u,\"ok\":%s}\n", count[CHECK_PASS], count[CHECK_FAIL],
               count[CHECK_SKIP], count[CHECK_FAIL] ? "false" : "true");
    else
        printf("wddm check: %u passed, %u failed, %u skipped\n", count[CHECK_PASS], count[CHECK_FAIL],
               count[CHECK_SKIP]);
    return count[CHECK_FAIL] ? 1 : 0;
}
