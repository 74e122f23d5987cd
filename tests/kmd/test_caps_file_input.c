/* Issue 14 §4, bad caps files are harmless (docs/rules/common.md): the WDDM_KMD_CAPS file is
 * short text in a regular file. Over-long lines, NUL and binary bytes, oversized files, and
 * paths that are not regular files (a FIFO nobody writes to, /dev/zero, a directory, a missing
 * or unreadable file) are refused with one line saying which rule, never hang, never read
 * without bound, and never set a capability; a comment may be of any length. Every path case
 * runs in a child process with a time limit, so a parser that blocks fails instead of hanging
 * the suite. */
/* rule: common.refused-caps-file-sets-nothing-kmd (every case compares the caps before and after) */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "common/caps.h"

static char path[64];

static void write_bytes(const void *data, size_t size)
{
    snprintf(path, sizeof path, "/tmp/wddm-capsin-%d.txt", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static int remove_file(void **state)
{
    (void)state;
    if (path[0]) {
        unlink(path);
        rmdir(path);
    }
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

/* Applies the file over zeroed caps; fails the test if it was accepted, or if the refusal does
 * not contain `rule`, or if any capability changed. */
static void expect_refused_text(const void *data, size_t size, const char *rule)
{
    write_bytes(data, size);
    DXGK_DRIVERCAPS c, before;
    memset(&c, 0, sizeof c);
    before = c;
    char err[512] = "";
    if (wddm_caps_apply_file(path, &c, err, sizeof err))
        fail_msg("accepted a file that breaks '%s'", rule);
    if (!strstr(err, rule))
        fail_msg("the refusal does not say '%s': %s", rule, err);
    assert_memory_equal(&c, &before, sizeof c);
}

/* wddm_caps_apply_file(p) in a child with a 10 s limit: a parser that blocks (a FIFO's open or
 * read, /dev/zero's endless read) fails the test instead of hanging it. The child runs as an
 * unprivileged user when asked (root reads any file whatever its mode). */
static void apply_in_child(const char *p, bool unprivileged, bool *accepted, char *err, size_t err_size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        if (unprivileged && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        DXGK_DRIVERCAPS c, before;
        memset(&c, 0, sizeof c);
        before = c;
        char e[512] = "";
        char ok = wddm_caps_apply_file(p, &c, e, sizeof e) ? 1 : 0;
        if (memcmp(&c, &before, sizeof c) != 0 && !ok)
            ok = 2; /* refused, yet a capability changed */
        ssize_t w = write(fds[1], &ok, 1);
        w += write(fds[1], e, strlen(e) + 1);
        _exit(w > 0 ? 0 : 4);
    }
    close(fds[1]);
    struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
    int ready = poll(&pfd, 1, 10000);
    if (ready <= 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        close(fds[0]);
        fail_msg("%s: the caps reader did not return within 10 s", p);
    }
    char buf[600] = "";
    size_t got = 0;
    ssize_t r;
    while (got < sizeof buf - 1 && (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got < 1)
        fail_msg("%s: the child failed (status 0x%x)", p, status);
    if (buf[0] == 2)
        fail_msg("%s: refused, but a capability changed", p);
    *accepted = buf[0] == 1;
    /* The child's refusal line, cut to what the caller keeps. */
    size_t n = strnlen(buf + 1, got - 1);
    if (n >= err_size)
        n = err_size - 1;
    memcpy(err, buf + 1, n);
    err[n] = '\0';
}

static void expect_path_refused(const char *p, bool unprivileged, const char *rule)
{
    bool accepted;
    char err[512];
    apply_in_child(p, unprivileged, &accepted, err, sizeof err);
    if (accepted)
        fail_msg("%s was accepted as a caps file", p);
    if (!strstr(err, rule) || !strstr(err, p))
        fail_msg("%s: the refusal does not name the path and '%s': %s", p, rule, err);
}

/* rule: common.caps-file-must-regular-file-opened */
static void a_fifo_without_a_writer_is_refused_without_blocking(void **state)
{
    snprintf(path, sizeof path, "/tmp/wddm-capsin-%d.txt", (int)getpid());
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    expect_path_refused(path, false, "not a regular file");
}

/* rule: common.caps-file-must-regular-file-opened */
static void devices_and_directories_are_refused(void **state)
{
    expect_path_refused("/dev/zero", false, "not a regular file"); /* would never end */
    expect_path_refused("/dev/null", false, "not a regular file");
    snprintf(path, sizeof path, "/tmp/wddm-capsin-%d.txt", (int)getpid());
    assert_int_equal(mkdir(path, 0700), 0);
    expect_path_refused(path, false, "not a regular file");
}

/* rule: common.caps-file-must-regular-file-opened (each in a child with a 10 s limit; the unreadable case drops root; mutation-checked: without `O_NONBLOCK` the FIFO case fails on the limit) */
static void missing_and_unreadable_files_are_refused_with_the_reason(void **state)
{
    expect_path_refused("/nonexistent/wddm.caps", false, "cannot open");
    static const char ok[] = "DXGK_VIDMMCAPS.OutOfOrderLock = 1\n";
    write_bytes(ok, sizeof ok - 1);
    assert_int_equal(chmod(path, 0), 0);
    expect_path_refused(path, true, "cannot open");
}

/* rule: common.caps-file-short-text-most-wddm (mutation-checked: accepting every non-NUL byte fails it) */
static void nul_and_binary_bytes_are_refused(void **state)
{
    /* A NUL hides the rest of the line from string functions: the line before it must not
     * count as a valid one. */
    static const char nul[] = "DXGK_VIDMMCAPS.OutOfOrderLock = 1\0garbage\n";
    expect_refused_text(nul, sizeof nul - 1, "a caps file is text");
    static const char ctl[] = "DXGK_VIDMMCAPS.OutOfOrderLock = 1\n\x1b[0m\n";
    expect_refused_text(ctl, sizeof ctl - 1, ":2:");
    unsigned char bin[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof bin; i++) {
        x = x * 1103515245u + 12345u;
        bin[i] = (unsigned char)(x >> 16);
    }
    expect_refused_text(bin, sizeof bin, "a caps file is text");
}

/* rule: common.caps-file-short-text-most-wddm (511 accepted, 512 refused) */
static void an_over_long_line_is_refused_naming_it(void **state)
{
    /* WDDM_CAPS_LINE_MAX characters before the comment are fine; one more is refused. */
    char text[2 * WDDM_CAPS_LINE_MAX];
    const char *set = "DXGK_VIDMMCAPS.OutOfOrderLock = 1";
    size_t n = strlen(set);
    memset(text, ' ', sizeof text);
    memcpy(text, set, n);
    text[WDDM_CAPS_LINE_MAX] = '\n';
    DXGK_DRIVERCAPS c;
    memset(&c, 0, sizeof c);
    char err[512] = "";
    write_bytes(text, WDDM_CAPS_LINE_MAX + 1);
    if (!wddm_caps_apply_file(path, &c, err, sizeof err))
        fail_msg("a line of exactly %u characters was refused: %s", WDDM_CAPS_LINE_MAX, err);
    assert_int_equal(c.MemoryManagementCaps.OutOfOrderLock, 1);
    char two[4 * WDDM_CAPS_LINE_MAX];
    int m = snprintf(two, sizeof two, "# fine\n%s%*s\n", set, (int)(WDDM_CAPS_LINE_MAX + 1 - n), "");
    expect_refused_text(two, (size_t)m, ":2: longer than");
}

/* rule: common.caps-file-short-text-most-wddm (100 000 characters holding a setting past column 512: not applied) */
static void a_comment_may_be_of_any_length(void **state)
{
    /* 100 000 characters of comment, holding text that looks like a setting past the first
     * 512 (a reader in fixed-size pieces would take it for a line of its own). */
    size_t len = 100000;
    char *text = malloc(len + 128);
    assert_non_null(text);
    memset(text, 'x', len);
    text[0] = '#';
    memcpy(text + 600, " DXGK_VIDMMCAPS.OutOfOrderLock = 1 ", 35);
    int m = snprintf(text + len, 128, "\nDXGK_VIDMMCAPS.CrossAdapterResource = 1  # %s\n", "trailing");
    write_bytes(text, len + (size_t)m);
    free(text);
    DXGK_DRIVERCAPS c;
    memset(&c, 0, sizeof c);
    char err[512] = "";
    if (!wddm_caps_apply_file(path, &c, err, sizeof err))
        fail_msg("a long comment was refused: %s", err);
    assert_int_equal(c.MemoryManagementCaps.OutOfOrderLock, 0);
    assert_int_equal(c.MemoryManagementCaps.CrossAdapterResource, 1);
}

/* rule: common.caps-file-short-text-most-wddm */
static void a_file_past_the_size_limit_is_refused_unread(void **state)
{
    size_t len = WDDM_CAPS_FILE_MAX + 1;
    char *text = malloc(len);
    assert_non_null(text);
    memset(text, '#', len); /* all comment: only the size is wrong */
    expect_refused_text(text, len, "larger than");
    free(text);
}

/* rule: common.refused-caps-file-sets-nothing-kmd */
static void the_kmd_refuses_the_start_and_names_the_rule(void **state)
{
    /* The user of the reader: WDDM_KMD_CAPS naming a FIFO fails the adapter start (no hang)
     * and the refusal lines say why. */
    snprintf(path, sizeof path, "/tmp/wddm-capsin-%d.txt", (int)getpid());
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    setenv("WDDM_KMD_CAPS", path, 1);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO ai[2];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 2, .pAdapters = ai};
    alarm(60); /* a blocking reader kills the test rather than hang the suite */
    NTSTATUS st = D3DKMTEnumAdapters2(&e);
    alarm(0);
    assert_false(NT_SUCCESS(st));
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, "WDDM_KMD_CAPS") || !strstr(why, "not a regular file"))
        fail_msg("the refusal does not name the rule:\n%s", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(a_fifo_without_a_writer_is_refused_without_blocking, remove_file),
        cmocka_unit_test_teardown(devices_and_directories_are_refused, remove_file),
        cmocka_unit_test_teardown(missing_and_unreadable_files_are_refused_with_the_reason, remove_file),
        cmocka_unit_test_teardown(nul_and_binary_bytes_are_refused, remove_file),
        cmocka_unit_test_teardown(an_over_long_line_is_refused_naming_it, remove_file),
        cmocka_unit_test_teardown(a_comment_may_be_of_any_length, remove_file),
        cmocka_unit_test_teardown(a_file_past_the_size_limit_is_refused_unread, remove_file),
        cmocka_unit_test_teardown(the_kmd_refuses_the_start_and_names_the_rule, remove_file),
    };
    return cmocka_run_group_tests_name("kmd.caps_file_input", tests, NULL, NULL);
}
