/* The displib tests' view of what the WDK services report: stderr captured into a string between
 * capture_start() and capture_end() (cmocka's own output goes to stdout: CMOCKA_MESSAGE_OUTPUT). */
#ifndef WDDM_TESTS_DISPLIB_STDERR_CAPTURE_H
#define WDDM_TESTS_DISPLIB_STDERR_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

static struct {
    FILE *file;
    int saved;
    char text[8192];
} cap;

static void capture_start(void)
{
    fflush(stderr);
    cap.file = tmpfile();
    assert_non_null(cap.file);
    cap.saved = dup(2);
    assert_true(cap.saved >= 0);
    assert_true(dup2(fileno(cap.file), 2) >= 0);
}

static const char *capture_end(void)
{
    fflush(stderr);
    dup2(cap.saved, 2);
    close(cap.saved);
    rewind(cap.file);
    size_t n = fread(cap.text, 1, sizeof cap.text - 1, cap.file);
    cap.text[n] = 0;
    fclose(cap.file);
    return cap.text;
}

#endif
