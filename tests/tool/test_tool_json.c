/* The wddm tool's machine-readable output (issue 18 §1, §2), read back with a JSON parser:
 * `wddm stats --json` describes every segment consistently (with --device, also the tool's own
 * device after a little work), `wddm demo --json` and `wddm soak
 * --json` report their counters as one object, and `wddm trace -o FILE -- COMMAND`
 * runs the command with the timeline on and leaves a trace-event file with the engine lanes of
 * that run; a command that fails passes its exit status through. The tool is this build's
 * (WDDM_TOOL_PATH). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs `args` through the shell, its stdout into out (at most n - 1 bytes); the exit status. */
static int run(const char *args, char *out, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "\"%s\" %s", WDDM_TOOL_PATH, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = out ? fread(out, 1, n - 1, p) : 0;
    if (out)
        out[got] = '\0';
    else
        while (fgetc(p) != EOF)
            ;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fail_msg("no \"%s\" in %s", key, json_object_to_json_string(o));
    return v;
}

/* rule: tool.wddm-stats-json-every-adapter-segment */
static void stats_json_describes_every_segment(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run("stats --json", out, sizeof out), 0);
    json_object *root = json_tokener_parse(out);
    if (!root)
        fail_msg("wddm stats --json is not JSON:\n%s", out);
    json_object *adapters = get(root, "adapters");
    assert_true(json_object_array_length(adapters) >= 1);
    json_object *a = json_object_array_get_idx(adapters, 0);
    assert_string_equal(json_object_get_string(get(a, "luid")), "00000000:00001000");
    json_object *segs = get(a, "segments");
    assert_int_equal(json_object_array_length(segs), 3);
    for (size_t i = 0; i < 3; i++) {
        json_object *g = json_object_array_get_idx(segs, i);
        int64_t size = json_object_get_int64(get(g, "size")), used = json_object_get_int64(get(g, "used"));
        int64_t free_ = json_object_get_int64(get(g, "free")), largest = json_object_get_int64(get(g, "largest_free"));
        assert_int_equal(json_object_get_int(get(g, "id")), (int)i + 1);
        assert_true(size > 0);
        assert_true(free_ == size - used);
        assert_true(largest <= free_);
        assert_true(json_object_is_type(get(g, "aperture"), json_type_boolean));
    }
    assert_true(json_object_get_boolean(get(json_object_array_get_idx(segs, 2), "aperture")));
    json_object_put(root);
}

/* `wddm stats --device --json` (issue 18 §2): the device part of wddm_query_memory_statistics
 * for the tool's own device after its work (tools/wddm/stats.c device_work: a 256 KiB GPU-only,
 * a 64 KiB upload written through a lock and a 64 KiB readback locked); without --device there
 * is no device part. The segments' instances hold at least the device's resident allocations. */
/* rule: tool.wddm-stats-device-json-also-device (mutation-checked: querying without the device, and a changed text line, fail it) */
static void stats_device_json_reports_the_device_s_work(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run("stats --json", out, sizeof out), 0);
    json_object *root = json_tokener_parse(out);
    assert_non_null(root);
    json_object *a = json_object_array_get_idx(get(root, "adapters"), 0), *unused = NULL;
    assert_false(json_object_object_get_ex(a, "device", &unused));
    json_object_put(root);

    assert_int_equal(run("stats --device --json", out, sizeof out), 0);
    root = json_tokener_parse(out);
    if (!root)
        fail_msg("wddm stats --device --json is not JSON:\n%s", out);
    a = json_object_array_get_idx(get(root, "adapters"), 0);
    json_object *d = get(a, "device"), *kinds = get(d, "kinds");
    assert_true(json_object_get_int64(get(d, "handle")) != 0);
    assert_int_equal(json_object_get_int(get(d, "allocations")), 3);
    assert_int_equal(json_object_get_int64(get(d, "bytes")), (256 + 64 + 64) << 10);
    int resident = json_object_get_int(get(d, "resident_allocations"));
    int64_t resident_bytes = json_object_get_int64(get(d, "resident_bytes"));
    assert_true(resident >= 2); /* the two locked ones were placed */
    assert_true(resident_bytes >= (64 + 64) << 10 && resident_bytes <= (256 + 64 + 64) << 10);
    assert_int_equal(json_object_get_int(get(d, "evicted_allocations")), 0);
    assert_int_equal(json_object_get_int(get(kinds, "cpu_visible")), 2);
    assert_int_equal(json_object_get_int(get(kinds, "primary")), 0);
    assert_int_equal(json_object_get_int(get(kinds, "shared")), 0);
    assert_int_equal(json_object_get_int(get(kinds, "opened")), 0);
    json_object_get_int(get(kinds, "swizzled"));
    json_object_get_int(get(kinds, "system_memory"));
    json_object *segs = get(a, "segments");
    int instances = 0;
    for (size_t i = 0; i < json_object_array_length(segs); i++)
        instances += json_object_get_int(get(json_object_array_get_idx(segs, i), "instances"));
    assert_true(instances >= resident);
    json_object_put(root);

    /* The text form carries the same device line. */
    assert_int_equal(run("stats --device", out, sizeof out), 0);
    if (!strstr(out, "3 allocations, 384.0 KiB") || !strstr(out, "kinds: 2 CPU-visible"))
        fail_msg("wddm stats --device does not show the device:\n%s", out);
}

/* `wddm info --json`: every caps field by its WDK name, the segments with their flags. */
/* rule: tool.wddm-info-json-every-dxgk-drivercaps */
static void info_json_names_every_caps_field_and_segment(void **state)
{
    (void)state;
    static char out[1 << 17];
    assert_int_equal(run("info --json", out, sizeof out), 0);
    json_object *root = json_tokener_parse(out);
    if (!root)
        fail_msg("wddm info --json is not JSON:\n%.400s", out);
    json_object *a = json_object_array_get_idx(get(root, "adapters"), 0);
    json_object *caps = get(a, "caps");
    assert_true(json_object_get_int64(get(caps, "DXGK_DRIVERCAPS.WDDMVersion")) > 0);
    assert_true(json_object_is_type(get(caps, "DXGK_VIDMMCAPS.OutOfOrderLock"), json_type_int));
    json_object *segs = get(a, "segments");
    assert_int_equal(json_object_array_length(segs), 3);
    json_object *names = get(json_object_array_get_idx(segs, 2), "flag_names");
    int aperture = 0;
    for (size_t i = 0; i < json_object_array_length(names); i++)
        aperture |= !strcmp(json_object_get_string(json_object_array_get_idx(names, i)), "Aperture");
    assert_true(aperture);
    json_object_put(root);
}

/* `wddm demo --json` and `wddm soak --json`: one JSON object, the counters as numbers, "ok". */
/* rule: tool.wddm-demo-json-wddm-soak-json */
static void demo_and_soak_json_reports_parse(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run("demo --json 5", out, sizeof out), 0);
    json_object *d = json_tokener_parse(out);
    if (!d)
        fail_msg("wddm demo --json is not JSON:\n%s", out);
    assert_string_equal(json_object_get_string(get(d, "command")), "demo");
    assert_int_equal(json_object_get_int(get(d, "frames")), 5);
    assert_true(json_object_get_int64(get(d, "dma_buffers_submitted")) > 0);
    assert_int_equal(json_object_get_int64(get(d, "readback_errors")), 0);
    assert_true(json_object_get_boolean(get(d, "ok")));
    json_object_put(d);

    assert_int_equal(run("soak --json 300 2", out, sizeof out), 0);
    json_object *k = json_tokener_parse(out);
    if (!k)
        fail_msg("wddm soak --json is not JSON:\n%s", out);
    assert_string_equal(json_object_get_string(get(k, "command")), "soak");
    assert_int_equal(json_object_get_int64(get(k, "ops")), 300);
    assert_int_equal(json_object_get_int64(get(k, "checksum_errors")), 0);
    json_object *segs = get(k, "segments");
    assert_int_equal(json_object_array_length(segs), 3);
    /* Local memory after cycling 4x its size through it: used, and the figures agree. */
    json_object *l = json_object_array_get_idx(segs, 0);
    assert_true(json_object_get_int64(get(l, "used")) > 0);
    assert_true(json_object_get_int64(get(l, "free")) ==
                json_object_get_int64(get(l, "size")) - json_object_get_int64(get(l, "used")));
    assert_true(json_object_get_boolean(get(k, "ok")));
    json_object_put(k);
}

/* `wddm bench --json`: the machine, then every figure with its median, spread, limit and ratio
 * (the structure only: a benchmark's figures are never asserted by tests). */
/* rule: tool.wddm-bench-json-one-json-object (structure only: figures are not asserted) */
/* rule: tool.wddm-bench-prints-each-workload-median (the JSON form: median within its min and max; the warning follows the load) */
static void bench_json_carries_every_figure(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run("bench --json quick W3", out, sizeof out), 0);
    json_object *root = json_tokener_parse(out);
    if (!root)
        fail_msg("wddm bench --json is not JSON:\n%s", out);
    assert_string_equal(json_object_get_string(get(root, "command")), "bench");
    assert_true(json_object_get_int(get(root, "cpus")) >= 1);
    assert_true(json_object_get_double(get(root, "cacheline_round_trip_ns")) > 0);
    /* The load warning says whether the load average exceeded half the CPUs (the load is printed
     * to two decimals: a hundredth of slack either side). */
    double load = json_object_get_double(get(root, "load_average"));
    double half = json_object_get_int(get(root, "cpus")) / 2.0;
    if (json_object_get_boolean(get(root, "load_warning")))
        assert_true(load > half - 0.01);
    else
        assert_true(load <= half + 0.01);
    json_object *results = get(root, "results");
    /* W3, then (issue 17 aim 7) W3 with 10^3 buffers alive: the quick run stops there. */
    assert_int_equal(json_object_array_length(results), 2);
    assert_string_equal(json_object_get_string(get(json_object_array_get_idx(results, 1), "name")),
                        "W3 create+release 4 KiB, 1000 live");
    json_object *w3 = json_object_array_get_idx(results, 0);
    assert_string_equal(json_object_get_string(get(w3, "limit")), "malloc+free");
    double median = json_object_get_double(get(w3, "median")), min = json_object_get_double(get(w3, "min"));
    double max = json_object_get_double(get(w3, "max")), limit = json_object_get_double(get(w3, "limit_median"));
    assert_true(min <= median && median <= max && limit > 0);
    double ratio = json_object_get_double(get(w3, "ratio"));
    assert_true(ratio > 0.99 * median / limit && ratio < 1.01 * median / limit);
    assert_true(json_object_get_boolean(get(root, "ok")));
    json_object_put(root);
}

/* rule: tool.wddm-trace-o-file-html-file */
static void trace_runs_the_command_and_writes_its_timeline(void **state)
{
    (void)state;
    char path[] = "/tmp/wddm_tool_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args, "trace -o %s -- \"%s\" demo 5", path, WDDM_TOOL_PATH);
    assert_int_equal(run(args, NULL, 0), 0);
    json_object *root = json_object_from_file(path);
    unlink(path);
    if (!root)
        fail_msg("the trace is not JSON");
    json_object *ev = get(root, "traceEvents");
    size_t n = json_object_array_length(ev), dma = 0, engine_lanes = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(ev, i);
        const char *name = json_object_get_string(get(e, "name"));
        const char *ph = json_object_get_string(get(e, "ph"));
        dma += !strcmp(ph, "X") && !strncmp(name, "DMA buffer ", 11);
        if (!strcmp(ph, "M") && !strcmp(name, "thread_name"))
            engine_lanes += strstr(json_object_get_string(get(get(e, "args"), "name")), "(engine)") != NULL;
    }
    /* Five frames of the demo: uploads, clears, copies, readbacks. */
    if (dma < 5 || engine_lanes < 1)
        fail_msg("the demo's trace has %zu DMA buffers on %zu engine lanes", dma, engine_lanes);
    json_object_put(root);
}

/* rule: tool.wddm-trace-o-file-html-file */
static void trace_passes_the_command_s_failure_through(void **state)
{
    (void)state;
    /* demo refuses a zero frame count: a usage error, exit 2, passed through. */
    assert_int_equal(run("trace -o /dev/null -- \"" WDDM_TOOL_PATH "\" demo 0 2>/dev/null", NULL, 0), 2);
    assert_int_equal(run("trace 2>/dev/null", NULL, 0), 2);                 /* no command */
    assert_int_equal(run("trace -- /nonexistent/program 2>/dev/null", NULL, 0), 127);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats_json_describes_every_segment),
        cmocka_unit_test(stats_device_json_reports_the_device_s_work),
        cmocka_unit_test(info_json_names_every_caps_field_and_segment),
        cmocka_unit_test(demo_and_soak_json_reports_parse),
        cmocka_unit_test(bench_json_carries_every_figure),
        cmocka_unit_test(trace_runs_the_command_and_writes_its_timeline),
        cmocka_unit_test(trace_passes_the_command_s_failure_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
