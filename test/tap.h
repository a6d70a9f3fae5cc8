/* tap.h - minimal TAP output for the C unit tests (one process). */
#ifndef RD_TEST_TAP_H
#define RD_TEST_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define tap_ok(cond, ...)                                                              \
    do {                                                                               \
        int tap_c_ = (cond);                                                           \
        tap_n++;                                                                       \
        printf("%sok %d - ", tap_c_ ? "" : "not ", tap_n);                             \
        printf(__VA_ARGS__);                                                           \
        printf("\n");                                                                  \
        if (!tap_c_) {                                                                 \
            tap_failed++;                                                              \
            printf("# failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
        }                                                                              \
    } while (0)

#define tap_is_int(got, exp, ...)                                                      \
    do {                                                                               \
        long long tap_g_ = (long long)(got), tap_e_ = (long long)(exp);                \
        tap_ok(tap_g_ == tap_e_, __VA_ARGS__);                                         \
        if (tap_g_ != tap_e_)                                                          \
            printf("# got %lld, expected %lld\n", tap_g_, tap_e_);                     \
    } while (0)

#define tap_is_str(got, exp, ...)                                                      \
    do {                                                                               \
        const char *tap_g_ = (got), *tap_e_ = (exp);                                   \
        int tap_same_ = tap_g_ && tap_e_ && strcmp(tap_g_, tap_e_) == 0;              \
        tap_ok(tap_same_, __VA_ARGS__);                                                \
        if (!tap_same_)                                                                \
            printf("# got '%s', expected '%s'\n", tap_g_ ? tap_g_ : "(null)",          \
                   tap_e_ ? tap_e_ : "(null)");                                         \
    } while (0)

#define tap_diag(...)                                                                  \
    do {                                                                               \
        printf("# ");                                                                  \
        printf(__VA_ARGS__);                                                           \
        printf("\n");                                                                  \
    } while (0)

/* n test points skipped, with the reason */
#define tap_skip(n, ...)                                                               \
    do {                                                                               \
        for (int tap_i_ = 0; tap_i_ < (n); tap_i_++) {                                 \
            tap_n++;                                                                   \
            printf("ok %d # SKIP ", tap_n);                                            \
            printf(__VA_ARGS__);                                                       \
            printf("\n");                                                              \
        }                                                                              \
    } while (0)

static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return 0; /* the TAP driver counts the "not ok" lines */
}

#endif
