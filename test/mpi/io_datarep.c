/* MPI test: data representations of files (runtime/io/PLAN.md 4.7; MPI-3.1
 * 13.5) on 1 and 2 ranks. external32: ints, doubles and int64s written
 * through a view are big-endian in the file, checked byte by byte with
 * POSIX pread against bytes this program composes, and read back equal;
 * get_type_extent. "internal": native bytes. A representation registered
 * with a byte-swapping conversion (the file holds each int's bytes
 * reversed; count and position in data items), one with
 * MPI_CONVERSION_FN_NULL (native bytes); errors: MPI_ERR_DUP_DATAREP,
 * MPI_ERR_CONVERSION, MPI_ERR_UNSUPPORTED_DATAREP. argv[1]: a directory
 * for the files (made by io_datarep.sh). */
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mtest.h"

static int rank, size;
static char dir[900];

enum { N = 40 };

/* n bytes of the file at off by POSIX */
static int file_bytes(const char *p, long off, unsigned char *out, long n)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t r = pread(fd, out, (size_t)n, off);
    close(fd);
    return r == n;
}

static void be(unsigned char *o, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        o[i] = (unsigned char)v;
}

static int calls_w, calls_r, bad_pos;
static MPI_Offset next_pos;

static int swap_w(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    calls_w++;
    if (dt != MPI_INT || *(int *)extra != 7 || position != next_pos)
        bad_pos++;
    next_pos = position + count;
    const unsigned char *u = (const unsigned char *)userbuf + 4 * position;
    unsigned char *f = filebuf;
    for (int i = 0; i < 4 * count; i += 4)
        for (int j = 0; j < 4; j++)
            f[i + j] = u[i + 3 - j];
    return MPI_SUCCESS;
}

static int swap_r(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    calls_r++;
    unsigned char *u = (unsigned char *)userbuf + 4 * position;
    const unsigned char *f = filebuf;
    for (int i = 0; i < 4 * count; i += 4)
        for (int j = 0; j < 4; j++)
            u[i + 3 - j] = f[i + j];
    return MPI_SUCCESS;
}

/* the same by MPI_Register_datarep_c's functions (an MPI_Count count) */
static int calls_cw, calls_cr;
static MPI_Count last_count_c;

static int swap_cw(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf, MPI_Offset position, void *extra)
{
    calls_cw++;
    last_count_c = count;
    return swap_w(userbuf, dt, (int)count, filebuf, position, extra);
}

static int swap_cr(void *userbuf, MPI_Datatype dt, MPI_Count count, void *filebuf, MPI_Offset position, void *extra)
{
    calls_cr++;
    return swap_r(userbuf, dt, (int)count, filebuf, position, extra);
}

static int fail_w(void *userbuf, MPI_Datatype dt, int count, void *filebuf, MPI_Offset position, void *extra)
{
    return MPI_ERR_OTHER;
}

static int ext_fn(MPI_Datatype dt, MPI_Aint *ext, void *extra)
{
    int s;
    MPI_Type_size(dt, &s);
    *ext = s;
    return MPI_SUCCESS;
}

static MPI_File open_file(const char *name, char *p)
{
    snprintf(p, 1024, "%s/%s", dir, name);
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open %s", name);
    return fh;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    snprintf(dir, sizeof dir, "%s", argc > 1 ? argv[1] : ".");
    char p[1024];
    MPI_Status st;
    int rc;

    /* ---- external32: each rank its block of N of each type */
    MPI_File fh = open_file("x32.dat", p);
    int iv[N], ib[N];
    double dv[N], db[N];
    int64_t lv[N], lb[N];
    for (int i = 0; i < N; i++) {
        iv[i] = (int)(0x01020304u * (unsigned)(i + 1) + (unsigned)rank) * (i % 2 ? -1 : 1);
        dv[i] = (rank + 1) * 1.5 + i / 8.0 - (i % 3 ? 100.0 : 0);
        lv[i] = (int64_t)0x0102030405060708LL * (i + 1) - rank;
    }
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
    mt_is_int(rc, MPI_SUCCESS, "set_view MPI_INT \"external32\"");
    rc = MPI_File_write_at(fh, (MPI_Offset)rank * N, iv, N, MPI_INT, &st);
    mt_is_int(rc, MPI_SUCCESS, "external32: write_at %d ints", N);
    rc = MPI_File_set_view(fh, (MPI_Offset)size * N * 4, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL);
    rc |= MPI_File_write_at(fh, (MPI_Offset)rank * N, dv, N, MPI_DOUBLE, &st);
    mt_is_int(rc, MPI_SUCCESS, "external32: write_at %d doubles", N);
    /* int64s through a strided view: every other 8 bytes is a hole */
    MPI_Datatype skip;
    MPI_Type_create_resized(MPI_INT64_T, 0, 16, &skip);
    MPI_Type_commit(&skip);
    MPI_Offset l0 = (MPI_Offset)size * N * 12;
    rc = MPI_File_set_view(fh, l0 + (MPI_Offset)rank * N * 16, MPI_INT64_T, skip, "external32", MPI_INFO_NULL);
    rc |= MPI_File_write_at(fh, 0, lv, N, MPI_INT64_T, &st);
    mt_is_int(rc, MPI_SUCCESS, "external32: write_at %d int64s through a view of every other 8 bytes", N);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    unsigned char got[16 * N], want[16 * N];
    for (int i = 0; i < N; i++)
        be(want + 4 * i, (uint32_t)iv[i], 4);
    mt_ok(file_bytes(p, (long)rank * N * 4, got, 4 * N) && memcmp(got, want, 4 * N) == 0,
          "external32 ints: big-endian byte by byte");
    for (int i = 0; i < N; i++) {
        uint64_t u;
        memcpy(&u, &dv[i], 8);
        be(want + 8 * i, u, 8);
    }
    mt_ok(file_bytes(p, (long)size * N * 4 + (long)rank * N * 8, got, 8 * N) && memcmp(got, want, 8 * N) == 0,
          "external32 doubles: IEEE big-endian byte by byte");
    unsigned char one[8];
    be(one, 0x3ff8000000000000ULL, 8); /* 1.5 */
    double d15 = 1.5;
    MPI_File_set_view(fh, (MPI_Offset)size * N * 4, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL);
    if (rank == 0)
        MPI_File_write_at(fh, 0, &d15, 1, MPI_DOUBLE, &st);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    mt_ok(file_bytes(p, (long)size * N * 4, got, 8) && memcmp(got, one, 8) == 0,
          "external32 1.5 is 3f f8 00 00 00 00 00 00");
    if (rank == 0)
        MPI_File_write_at(fh, 0, dv, 1, MPI_DOUBLE, &st); /* put it back */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++)
        be(want + 16 * i, (uint64_t)lv[i], 8);
    mt_ok(file_bytes(p, (long)l0 + (long)rank * N * 16, got, 16 * N - 8) && memcmp(got, want, 16 * N - 8) == 0,
          "external32 int64s: big-endian, the holes zero");

    /* read back */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
    rc = MPI_File_read_at(fh, (MPI_Offset)rank * N, ib, N, MPI_INT, &st);
    int c = 0;
    MPI_Get_count(&st, MPI_INT, &c);
    mt_ok(rc == MPI_SUCCESS && c == N && memcmp(ib, iv, sizeof iv) == 0, "external32 ints read back equal");
    MPI_File_set_view(fh, (MPI_Offset)size * N * 4, MPI_DOUBLE, MPI_DOUBLE, "external32", MPI_INFO_NULL);
    rc = MPI_File_read_at(fh, (MPI_Offset)rank * N, db, N, MPI_DOUBLE, &st);
    mt_ok(rc == MPI_SUCCESS && memcmp(db, dv, sizeof dv) == 0, "external32 doubles read back equal");
    MPI_File_set_view(fh, l0 + (MPI_Offset)rank * N * 16, MPI_INT64_T, skip, "external32", MPI_INFO_NULL);
    rc = MPI_File_read_at(fh, 0, lb, N, MPI_INT64_T, &st);
    mt_ok(rc == MPI_SUCCESS && memcmp(lb, lv, sizeof lv) == 0, "external32 int64s read back equal");
    MPI_Aint ext = -1;
    MPI_Datatype sd;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &sd);
    MPI_Type_commit(&sd);
    rc = MPI_File_get_type_extent(fh, sd, &ext);
    mt_ok(rc == MPI_SUCCESS && ext == 16, "get_type_extent of struct {int, double} in external32: 16");
    MPI_File_close(&fh);

    /* ---- "internal": native bytes */
    fh = open_file("internal.dat", p);
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL);
    rc |= MPI_File_write_at(fh, (MPI_Offset)rank * N, iv, N, MPI_INT, &st);
    MPI_File_sync(fh);
    mt_ok(rc == MPI_SUCCESS && file_bytes(p, (long)rank * N * 4, got, 4 * N) && memcmp(got, iv, 4 * N) == 0,
          "\"internal\": the ints' native bytes");
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset d;
    MPI_Datatype e, f;
    MPI_File_get_view(fh, &d, &e, &f, rep);
    mt_ok(!strcmp(rep, "internal"), "get_view: datarep \"internal\"");
    MPI_File_close(&fh);

    /* ---- registered representations */
    static int seven = 7;
    rc = MPI_Register_datarep("swap32", swap_r, swap_w, ext_fn, &seven);
    mt_is_int(rc, MPI_SUCCESS, "Register_datarep \"swap32\"");
    rc = MPI_Register_datarep("swap32", swap_r, swap_w, ext_fn, NULL);
    mt_is_int(rc, MPI_ERR_DUP_DATAREP, "Register_datarep \"swap32\" again: MPI_ERR_DUP_DATAREP");
    rc = MPI_Register_datarep("native", swap_r, swap_w, ext_fn, NULL);
    mt_is_int(rc, MPI_ERR_DUP_DATAREP, "Register_datarep \"native\": MPI_ERR_DUP_DATAREP");
    fh = open_file("swap.dat", p);
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap32", MPI_INFO_NULL);
    next_pos = 0;
    rc |= MPI_File_write_at(fh, (MPI_Offset)rank * N, iv, N, MPI_INT, &st);
    MPI_File_sync(fh);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            want[4 * i + j] = ((unsigned char *)&iv[i])[3 - j];
    mt_ok(rc == MPI_SUCCESS && calls_w >= 1 && bad_pos == 0 && file_bytes(p, (long)rank * N * 4, got, 4 * N) &&
              memcmp(got, want, 4 * N) == 0,
          "\"swap32\": the write conversion's bytes in the file, each int reversed (%d calls)", calls_w);
    memset(ib, 0, sizeof ib);
    rc = MPI_File_read_at(fh, (MPI_Offset)rank * N, ib, N, MPI_INT, &st);
    mt_ok(rc == MPI_SUCCESS && calls_r >= 1 && memcmp(ib, iv, sizeof iv) == 0,
          "\"swap32\": read through the read conversion equal");
    rc = MPI_File_get_type_extent(fh, MPI_INT, &ext);
    mt_ok(rc == MPI_SUCCESS && ext == 4, "\"swap32\": get_type_extent(MPI_INT) from its extent function: 4");
    MPI_File_close(&fh);

    /* MPI_Register_datarep_c: its conversions get the count as an MPI_Count */
    rc = MPI_Register_datarep_c("swap32c", swap_cr, swap_cw, ext_fn, &seven);
    mt_is_int(rc, MPI_SUCCESS, "Register_datarep_c \"swap32c\"");
    rc = MPI_Register_datarep_c("swap32", swap_cr, swap_cw, ext_fn, &seven);
    mt_is_int(rc, MPI_ERR_DUP_DATAREP, "Register_datarep_c \"swap32\" (taken): MPI_ERR_DUP_DATAREP");
    fh = open_file("swapc.dat", p);
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap32c", MPI_INFO_NULL);
    next_pos = 0;
    bad_pos = 0;
    rc |= MPI_File_write_at_c(fh, (MPI_Offset)rank * N, iv, N, MPI_INT, &st);
    MPI_File_sync(fh);
    mt_ok(rc == MPI_SUCCESS && calls_cw >= 1 && bad_pos == 0 && last_count_c > 0 && last_count_c <= N &&
              file_bytes(p, (long)rank * N * 4, got, 4 * N) && memcmp(got, want, 4 * N) == 0,
          "\"swap32c\": the _c write conversion's bytes in the file, each int reversed (%d calls)", calls_cw);
    memset(ib, 0, sizeof ib);
    rc = MPI_File_read_at_c(fh, (MPI_Offset)rank * N, ib, N, MPI_INT, &st);
    mt_ok(rc == MPI_SUCCESS && calls_cr >= 1 && memcmp(ib, iv, sizeof iv) == 0,
          "\"swap32c\": read through the _c read conversion equal");
    MPI_File_close(&fh);

    rc = MPI_Register_datarep("asis", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, ext_fn, NULL);
    fh = open_file("asis.dat", p);
    rc |= MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "asis", MPI_INFO_NULL);
    rc |= MPI_File_write_at(fh, (MPI_Offset)rank * N, iv, N, MPI_INT, &st);
    MPI_File_sync(fh);
    mt_ok(rc == MPI_SUCCESS && file_bytes(p, (long)rank * N * 4, got, 4 * N) && memcmp(got, iv, 4 * N) == 0,
          "MPI_CONVERSION_FN_NULL: native bytes");
    MPI_File_close(&fh);

    rc = MPI_Register_datarep("broken", swap_r, fail_w, ext_fn, &seven);
    fh = open_file("broken.dat", p);
    rc |= MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "broken", MPI_INFO_NULL);
    mt_is_int(rc, MPI_SUCCESS, "register \"broken\" and set_view with it");
    rc = MPI_File_write_at(fh, 0, iv, N, MPI_INT, &st);
    mt_is_int(rc, MPI_ERR_CONVERSION, "a failing write conversion: MPI_ERR_CONVERSION");
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_UNSUPPORTED_DATAREP, "set_view with an unknown datarep: MPI_ERR_UNSUPPORTED_DATAREP");
    MPI_File_close(&fh);
    MPI_Type_free(&skip);
    MPI_Type_free(&sd);

    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}
