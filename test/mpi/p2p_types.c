/* MPI test: every predefined C datatype of MPI-3.1 (3.2.2, 5.9.4) sent and
 * received with its values checked: each rank sends N values to rank+1 and
 * receives from rank-1.
 *   - MPI_Type_size equals sizeof the C type (for the pair types: the sum of
 *     the two members' sizes, their padding is not data)
 *   - MPI_Get_count is N, MPI_Get_elements is N for the basic types
 *   - nothing written past N elements; for the pair types (whose C structs
 *     have padding) the holes of the receive buffer are not written either
 *     (only the locations of the type map are, MPI-3.1 3.2.4)
 *   - pair types in counts large enough for rendezvous (non-contiguous data
 *     through every protocol) */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "test/mpi/p2p_common.c"

#define N 7

static int right, left, tagno;

static int type_size(MPI_Datatype t)
{
    int s = -1;
    MPI_Type_size(t, &s);
    return s;
}

/* send s (n elements of t) right, receive n into r from left, return count
 * and elements */
static void xchg(const void *s, void *r, int n, MPI_Datatype t, int *count, int *elems)
{
    MPI_Request q;
    MPI_Status st;
    MPI_Isend(s, n, t, right, tagno, MPI_COMM_WORLD, &q);
    MPI_Recv(r, n, t, left, tagno, MPI_COMM_WORLD, &st);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    tagno++;
    *count = *elems = -1;
    MPI_Get_count(&st, t, count);
    MPI_Get_elements(&st, t, elems);
}

#define BASIC(T, MT, VAL)                                                                          \
    do {                                                                                           \
        T s_[N], r_[N + 1];                                                                        \
        int c_, e_, bad_ = 0;                                                                      \
        for (int i = 0; i < N; i++) {                                                              \
            int rk = p2p_rank;                                                                     \
            s_[i] = (VAL);                                                                         \
        }                                                                                          \
        memset(r_, 0xa5, sizeof(r_));                                                              \
        xchg(s_, r_, N, MT, &c_, &e_);                                                             \
        for (int i = 0; i < N; i++) {                                                              \
            int rk = left;                                                                         \
            T want_ = (VAL);                                                                       \
            bad_ += !(r_[i] == want_);                                                             \
        }                                                                                          \
        mt_is_int(type_size(MT), sizeof(T), "MPI_Type_size(" #MT ") == sizeof(" #T ")");           \
        mt_ok(bad_ == 0 && c_ == N && e_ == N, #MT ": %d values from the left neighbour, count %d, " \
              "elements %d", N, c_, e_);                                                           \
        mt_ok(p2p_check_byte(&r_[N], sizeof(T), 0xa5) < 0, #MT ": nothing written past them");    \
    } while (0)

/* bytes of a pair struct that are not data: between and after the members */
#define HOLES_OK(S, buf, n)                                                                        \
    ({                                                                                             \
        int ok_ = 1;                                                                               \
        for (int j_ = 0; j_ < (n); j_++) {                                                         \
            const unsigned char *p_ = (const unsigned char *)&(buf)[j_];                           \
            for (size_t b_ = 0; b_ < sizeof(S); b_++) {                                            \
                /* v is the first member, at offset 0 */                                   \
                int data_ = b_ < sizeof(((S *)0)->v) ||                                            \
                            (b_ < offsetof(S, i) + sizeof(int) && b_ >= offsetof(S, i));           \
                if (!data_ && p_[b_] != 0xa5)                                                      \
                    ok_ = 0;                                                                       \
            }                                                                                      \
        }                                                                                          \
        ok_;                                                                                       \
    })

#define PAIR(VT, MT, n)                                                                            \
    do {                                                                                           \
        typedef struct {                                                                           \
            VT v;                                                                                  \
            int i;                                                                                 \
        } S;                                                                                       \
        int n_ = (n), c_, e_, bad_ = 0;                                                            \
        S *s_ = malloc(sizeof(S) * (size_t)(n_ + 1)), *r_ = malloc(sizeof(S) * (size_t)(n_ + 1));  \
        memset(s_, 0x3c, sizeof(S) * (size_t)(n_ + 1)); /* padding: something else */              \
        for (int j = 0; j < n_; j++) {                                                             \
            s_[j].v = (VT)(p2p_rank * 3 + j % 1000);                                               \
            s_[j].i = -(p2p_rank * 100000 + j);                                                    \
        }                                                                                          \
        memset(r_, 0xa5, sizeof(S) * (size_t)(n_ + 1));                                            \
        xchg(s_, r_, n_, MT, &c_, &e_);                                                            \
        for (int j = 0; j < n_; j++)                                                               \
            bad_ += r_[j].v != (VT)(left * 3 + j % 1000) || r_[j].i != -(left * 100000 + j);       \
        if (n_ == N) {                                                                             \
            mt_is_int(type_size(MT), sizeof(VT) + sizeof(int),                                     \
                      "MPI_Type_size(" #MT ") == sizeof(" #VT ") + sizeof(int)");                  \
            if (p2p_rank == 0) /* read differently by implementations: shown */                  \
                printf("# [rank %d] " #MT ": Get_elements of %d: %d\n", p2p_rank, n_, e_);         \
        }                                                                                          \
        mt_ok(bad_ == 0 && c_ == n_, #MT ": %d pairs from the left neighbour (%d wrong), count %d", \
              n_, bad_, c_);                                                                       \
        mt_ok(p2p_check_byte(&r_[n_], sizeof(S), 0xa5) < 0, #MT ": nothing written past them");    \
        mt_ok(HOLES_OK(S, r_, n_), #MT ": the padding holes of the receive buffer are not written"); \
        free(s_);                                                                                  \
        free(r_);                                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    right = (p2p_rank + 1) % p2p_size;
    left = (p2p_rank + p2p_size - 1) % p2p_size;

    BASIC(char, MPI_CHAR, (char)('A' + rk + i));
    BASIC(signed char, MPI_SIGNED_CHAR, (signed char)(-rk - i));
    BASIC(unsigned char, MPI_UNSIGNED_CHAR, (unsigned char)(200 + rk + i));
    BASIC(short, MPI_SHORT, (short)(-1000 * rk - i));
    BASIC(unsigned short, MPI_UNSIGNED_SHORT, (unsigned short)(60000 + rk + i));
    BASIC(int, MPI_INT, -100000 * rk - i - 1);
    BASIC(unsigned, MPI_UNSIGNED, 4000000000u - (unsigned)(rk + i));
    BASIC(long, MPI_LONG, -(1L << 40) * (rk + 1) - i);
    BASIC(unsigned long, MPI_UNSIGNED_LONG, ~0UL - (unsigned long)(rk * 10 + i));
    BASIC(long long, MPI_LONG_LONG_INT, -(1LL << 50) * (rk + 1) + i);
    BASIC(long long, MPI_LONG_LONG, (1LL << 51) * (rk + 1) + i);
    BASIC(unsigned long long, MPI_UNSIGNED_LONG_LONG, ~0ULL - (unsigned long long)(rk * 10 + i));
    BASIC(float, MPI_FLOAT, (float)rk + (float)i * 0.25f);
    BASIC(double, MPI_DOUBLE, (double)rk * 1e100 + (double)i / 3.0);
    BASIC(long double, MPI_LONG_DOUBLE, (long double)rk * 1e1000L + (long double)i / 7.0L);
    BASIC(wchar_t, MPI_WCHAR, (wchar_t)(L'a' + rk * 100 + i));
    BASIC(bool, MPI_C_BOOL, (rk + i) % 2 == 0);
    BASIC(int8_t, MPI_INT8_T, (int8_t)(-rk - i));
    BASIC(int16_t, MPI_INT16_T, (int16_t)(-300 * rk - i));
    BASIC(int32_t, MPI_INT32_T, (int32_t)(-70000 * rk - i));
    BASIC(int64_t, MPI_INT64_T, (int64_t)(-(1LL << 40) * rk - i));
    BASIC(uint8_t, MPI_UINT8_T, (uint8_t)(250 - rk - i));
    BASIC(uint16_t, MPI_UINT16_T, (uint16_t)(65000 + rk + i));
    BASIC(uint32_t, MPI_UINT32_T, (uint32_t)(4000000000u + (unsigned)(rk + i)));
    BASIC(uint64_t, MPI_UINT64_T, (uint64_t)((1ULL << 63) + (unsigned)(rk * 10 + i)));
    BASIC(MPI_Aint, MPI_AINT, (MPI_Aint)(-(1LL << 45) - rk * 10 - i));
    BASIC(MPI_Offset, MPI_OFFSET, (MPI_Offset)((1LL << 44) + rk * 10 + i));
    BASIC(MPI_Count, MPI_COUNT, (MPI_Count)((1LL << 43) + rk * 10 + i));
    BASIC(float _Complex, MPI_C_COMPLEX, (float)rk + (float)i * I);
    BASIC(float _Complex, MPI_C_FLOAT_COMPLEX, (float)i - (float)rk * I);
    BASIC(double _Complex, MPI_C_DOUBLE_COMPLEX, (double)rk / 3.0 + (double)i * 1e200 * I);
    BASIC(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, (long double)rk / 3.0L + (long double)i * 1e1000L * I);
    BASIC(unsigned char, MPI_BYTE, (unsigned char)(rk * 16 + i));
    BASIC(unsigned char, MPI_PACKED, (unsigned char)(255 - rk * 16 - i));
    /* the C++ types and the Fortran types are predefined in C too */
    BASIC(_Bool, MPI_CXX_BOOL, (_Bool)((rk + i) % 2));
    BASIC(float _Complex, MPI_CXX_FLOAT_COMPLEX, (float)i + (float)rk * I);
    BASIC(double _Complex, MPI_CXX_DOUBLE_COMPLEX, (double)rk - (double)i * I);
    BASIC(long double _Complex, MPI_CXX_LONG_DOUBLE_COMPLEX, (long double)i / 7.0L + (long double)rk * I);
    BASIC(char, MPI_CHARACTER, (char)('a' + rk + i));
    BASIC(int32_t, MPI_LOGICAL, (int32_t)((rk + i) % 2));
    BASIC(int32_t, MPI_INTEGER, (int32_t)(-70000 * rk - i));
    BASIC(float, MPI_REAL, (float)rk * 0.25f + (float)i);
    BASIC(double, MPI_DOUBLE_PRECISION, (double)rk / 3.0 + (double)i);
    BASIC(float _Complex, MPI_COMPLEX, (float)rk + (float)i * I);
    BASIC(double _Complex, MPI_DOUBLE_COMPLEX, (double)i + (double)rk * I);
    BASIC(int8_t, MPI_INTEGER1, (int8_t)(-rk - i));
    BASIC(int16_t, MPI_INTEGER2, (int16_t)(-300 * rk - i));
    BASIC(int32_t, MPI_INTEGER4, (int32_t)(100000 * rk + i));
    BASIC(int64_t, MPI_INTEGER8, (int64_t)((1LL << 40) * rk + i));
    BASIC(float, MPI_REAL4, (float)i - (float)rk);
    BASIC(double, MPI_REAL8, (double)i * 1e100 + rk);
    BASIC(float _Complex, MPI_COMPLEX8, (float)rk - (float)i * I);
    BASIC(double _Complex, MPI_COMPLEX16, (double)rk * 1e-100 + (double)i * I);
    /* the Fortran pairs (MINLOC/MAXLOC): two of one type; elements count both */
    {
        int32_t s2[2 * N], r2[2 * N];
        int c = -1, e = -1, bad = 0;
        for (int j = 0; j < 2 * N; j++)
            s2[j] = p2p_rank * 1000 + j;
        xchg(s2, r2, N, MPI_2INTEGER, &c, &e);
        for (int j = 0; j < 2 * N; j++)
            bad += r2[j] != left * 1000 + j;
        mt_ok(bad == 0 && c == N && e == 2 * N, "MPI_2INTEGER: %d pairs, count %d, elements %d", N, c, e);
        mt_is_int(type_size(MPI_2REAL), 2 * sizeof(float), "MPI_Type_size(MPI_2REAL)");
        mt_is_int(type_size(MPI_2DOUBLE_PRECISION), 2 * sizeof(double), "MPI_Type_size(MPI_2DOUBLE_PRECISION)");
    }

    PAIR(float, MPI_FLOAT_INT, N);
    PAIR(double, MPI_DOUBLE_INT, N);
    PAIR(long, MPI_LONG_INT, N);
    PAIR(int, MPI_2INT, N);
    PAIR(short, MPI_SHORT_INT, N);
    PAIR(long double, MPI_LONG_DOUBLE_INT, N);
    /* non-contiguous data in rendezvous sizes */
    PAIR(double, MPI_DOUBLE_INT, 200000);
    PAIR(short, MPI_SHORT_INT, 300000);
    PAIR(long double, MPI_LONG_DOUBLE_INT, 70000);
    PAIR(float, MPI_FLOAT_INT, 3);

    /* a contiguous basic type in a rendezvous size too */
    {
        int n = 300000, c = -1, e = -1, bad = 0;
        double *s = malloc(sizeof(double) * (size_t)n), *r = malloc(sizeof(double) * (size_t)n);
        for (int j = 0; j < n; j++)
            s[j] = p2p_rank + j * 0.5;
        xchg(s, r, n, MPI_DOUBLE, &c, &e);
        for (int j = 0; j < n; j++)
            bad += r[j] != left + j * 0.5;
        mt_ok(bad == 0 && c == n && e == n, "MPI_DOUBLE x %d: values, count, elements", n);
        free(s);
        free(r);
    }
    MPI_Finalize();
    return mt_done();
}
