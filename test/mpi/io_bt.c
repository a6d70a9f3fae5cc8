/* io_bt: collective I/O of a block-distributed 3-D array (the BT-IO
 * pattern; runtime/io/PLAN.md 8) and on a strided view with holes.
 *
 * A 23x17x13 array of doubles (value = global index), block-distributed
 * over a 3-D grid of the ranks (MPI_Dims_create), each rank's part
 * described by a subarray filetype after a displacement: written by
 * MPI_File_write_all, the file's bytes checked by POSIX pread against an
 * image computed here, read back by MPI_File_read_all with another
 * decomposition (slabs along y). Under three sets of hints: two-phase
 * forced with cb_buffer_size 4096 (many rounds) and cb_nodes 1, two-phase
 * forced with the default aggregators, and no hints (automatic).
 * Then interleaved vector views with holes (blocks of 3 doubles per rank,
 * 2 doubles of hole per period) over a file whose holes hold -1: write_at_all
 * at an etype offset, the holes still -1 and every block right, read_at_all
 * back, and one rank with nothing to move.
 *
 * Usage: io_bt [DIR] (files go to a directory made under DIR, removed at
 * the end). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include "test/mpi/mtest.h"

enum { NZ = 23, NY = 17, NX = 13 };
#define DISP 1024

static int rank, size;

static void part(int n, int parts, int k, int *start, int *len)
{
    *start = n * k / parts;
    *len = n * (k + 1) / parts - *start;
}

/* this rank's block of grid g: the subarray type and its values */
static MPI_Datatype block(const int *g, int *st, int *sub)
{
    int gsize[3] = {NZ, NY, NX};
    int c[3] = {rank / (g[1] * g[2]), rank / g[2] % g[1], rank % g[2]};
    for (int d = 0; d < 3; d++)
        part(gsize[d], g[d], c[d], &st[d], &sub[d]);
    MPI_Datatype t;
    MPI_Type_create_subarray(3, gsize, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

static double *values(const int *st, const int *sub, int *n)
{
    *n = sub[0] * sub[1] * sub[2];
    double *x = malloc((size_t)(*n ? *n : 1) * sizeof *x);
    int k = 0;
    for (int z = st[0]; z < st[0] + sub[0]; z++)
        for (int y = st[1]; y < st[1] + sub[1]; y++)
            for (int w = st[2]; w < st[2] + sub[2]; w++)
                x[k++] = (double)((z * NY + y) * NX + w);
    return x;
}

/* rank 0: the file against the image (DISP bytes of 0x77, the array) */
static int file_ok(const char *path, const char *what)
{
    int ok = 1;
    if (rank == 0) {
        size_t n = DISP + (size_t)NZ * NY * NX * 8;
        unsigned char *img = malloc(n), *got = malloc(n + 8);
        memset(img, 0x77, DISP);
        for (size_t k = 0; k < (size_t)NZ * NY * NX; k++) {
            double x = (double)k;
            memcpy(img + DISP + 8 * k, &x, 8);
        }
        int fd = open(path, O_RDONLY);
        ssize_t k = fd >= 0 ? pread(fd, got, n + 8, 0) : -1;
        ok = k == (ssize_t)n && memcmp(img, got, n) == 0;
        mt_ok(ok, "%s: the file (%zd bytes) = 0x77 x %d, then double k = k for k < %d", what, k,
              DISP, NZ * NY * NX);
        if (fd >= 0)
            close(fd);
        free(img);
        free(got);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

static void bt(const char *dir, const char *what, MPI_Info info, int casen)
{
    char path[600];
    snprintf(path, sizeof path, "%s/bt%d", dir, casen);
    if (rank == 0) {
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        unsigned char pre[DISP];
        memset(pre, 0x77, sizeof pre);
        mt_ok(fd >= 0 && pwrite(fd, pre, DISP, 0) == DISP, "%s: file made by POSIX", what);
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    int err = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, info, &fh);
    mt_is_int(err, MPI_SUCCESS, "%s: MPI_File_open", what);

    int g[3] = {0, 0, 0}, st[3], sub[3], n;
    MPI_Dims_create(size, 3, g);
    MPI_Datatype ft = block(g, st, sub);
    double *x = values(st, sub, &n);
    err = MPI_File_set_view(fh, DISP, MPI_DOUBLE, ft, "native", info);
    mt_is_int(err, MPI_SUCCESS, "%s: set_view (subarray %dx%dx%d at %d,%d,%d of grid %dx%dx%d)", what,
              sub[0], sub[1], sub[2], st[0], st[1], st[2], g[0], g[1], g[2]);
    MPI_Status s;
    int cnt = -1;
    err = MPI_File_write_all(fh, x, n, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    mt_ok(err == MPI_SUCCESS && cnt == n, "%s: write_all of %d doubles (count %d)", what, n, cnt);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    file_ok(path, what);
    MPI_Offset fsz = -1;
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, DISP + NZ * NY * NX * 8, "%s: file size", what);

    /* read back in slabs along y */
    int gr[3] = {1, size, 1}, st2[3], sub2[3], n2;
    MPI_Datatype ft2 = block(gr, st2, sub2);
    double *want = values(st2, sub2, &n2);
    double *got = calloc((size_t)(n2 ? n2 : 1), sizeof *got);
    MPI_File_set_view(fh, DISP, MPI_DOUBLE, ft2, "native", info);
    cnt = -1;
    err = MPI_File_read_all(fh, got, n2, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    mt_ok(err == MPI_SUCCESS && cnt == n2 && memcmp(got, want, (size_t)n2 * sizeof *got) == 0,
          "%s: read_all of a y-slab of %d doubles, each its global index (count %d)", what, n2, cnt);
    MPI_File_close(&fh);
    MPI_Type_free(&ft);
    MPI_Type_free(&ft2);
    free(x);
    free(want);
    free(got);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(path);
}

/* interleaved vector views with holes */
enum { BL = 3, HOLE = 2, NB = 700, OFF = 5 };

static void holes(const char *dir, MPI_Info info)
{
    char path[600];
    snprintf(path, sizeof path, "%s/holes", dir);
    int period = size * BL + HOLE; /* doubles */
    size_t nfile = (size_t)(OFF / BL + NB + 2) * period;
    if (rank == 0) {
        double *m = malloc(nfile * sizeof *m);
        for (size_t k = 0; k < nfile; k++)
            m[k] = -1.0;
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        mt_ok(fd >= 0 && pwrite(fd, m, nfile * 8, 0) == (ssize_t)(nfile * 8),
              "holes: file of %zu doubles -1 made by POSIX", nfile);
        close(fd);
        free(m);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    mt_is_int(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, info, &fh), MPI_SUCCESS,
              "holes: open");
    MPI_Datatype blk, ft;
    MPI_Type_contiguous(BL, MPI_DOUBLE, &blk);
    MPI_Type_create_resized(blk, 0, (MPI_Aint)period * 8, &ft);
    MPI_Type_free(&blk);
    MPI_Type_commit(&ft);
    /* rank r's blocks at r*BL doubles of each period: the view's
     * displacement puts them there */
    MPI_File_set_view(fh, (MPI_Offset)rank * BL * 8, MPI_DOUBLE, ft, "native", info);
    int last = size - 1;
    int n = rank == last && size > 1 ? 0 : NB * BL; /* the last rank moves nothing */
    double *x = malloc((size_t)NB * BL * sizeof *x);
    for (int k = 0; k < NB * BL; k++)
        x[k] = rank * 100000.0 + k;
    MPI_Status s;
    int cnt = -1;
    int err = MPI_File_write_at_all(fh, OFF, x, n, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    mt_ok(err == MPI_SUCCESS && cnt == n, "holes: write_at_all of %d doubles at etype %d (count %d)",
          n, OFF, cnt);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    if (rank == 0) {
        double *img = malloc(nfile * sizeof *img), *got = malloc(nfile * sizeof *got);
        for (size_t k = 0; k < nfile; k++)
            img[k] = -1.0;
        for (int r = 0; r < size; r++) {
            if (r == last && size > 1)
                continue;
            for (int k = 0; k < NB * BL; k++) {
                int e = OFF + k; /* etype index in r's stream */
                img[(size_t)(e / BL) * period + r * BL + e % BL] = r * 100000.0 + k;
            }
        }
        int fd = open(path, O_RDONLY);
        ssize_t k = pread(fd, got, nfile * 8, 0);
        close(fd);
        int ok = k == (ssize_t)(nfile * 8) && memcmp(img, got, nfile * 8) == 0;
        mt_ok(ok, "holes: every block where its view puts it, holes and skipped blocks still -1");
        free(img);
        free(got);
    }
    double *back = calloc((size_t)NB * BL, sizeof *back);
    cnt = -1;
    err = MPI_File_read_at_all(fh, OFF, back, n, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    mt_ok(err == MPI_SUCCESS && cnt == n && memcmp(back, x, (size_t)n * sizeof *x) == 0,
          "holes: read_at_all gives back the %d doubles (count %d)", n, cnt);
    MPI_File_close(&fh);
    MPI_Type_free(&ft);
    free(x);
    free(back);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(path);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    char dir[512];
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(dir, sizeof dir, "%s/io_bt.%d", argc > 1 ? argv[1] : ".", id);
    if (rank == 0)
        mt_ok(mkdir(dir, 0755) == 0, "directory %s made", dir);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Info many;
    MPI_Info_create(&many);
    MPI_Info_set(many, "romio_cb_write", "enable");
    MPI_Info_set(many, "romio_cb_read", "enable");
    MPI_Info_set(many, "cb_buffer_size", "4096");
    MPI_Info_set(many, "cb_nodes", "1");
    bt(dir, "two-phase, cb 4096, cb_nodes 1", many, 0);
    MPI_Info forced;
    MPI_Info_create(&forced);
    MPI_Info_set(forced, "romio_cb_write", "enable");
    MPI_Info_set(forced, "romio_cb_read", "enable");
    MPI_Info_set(forced, "cb_buffer_size", "8192");
    bt(dir, "two-phase, cb 8192", forced, 1);
    bt(dir, "automatic", MPI_INFO_NULL, 2);
    holes(dir, many);
    holes(dir, MPI_INFO_NULL);
    MPI_Info_free(&many);
    MPI_Info_free(&forced);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(rmdir(dir) == 0, "directory removed");
    mt_done();
    MPI_Finalize();
    return 0;
}
