/* io_coll: collective data access through MPI_File (the _all and _at_all
 * forms; runtime/io/coll.c) on the default view, under three sets of
 * hints: two-phase forced with cb_buffer_size 4096 (many rounds) and
 * cb_nodes 1, two-phase forced with the default aggregators (automatic:
 * one per node for writes, two for reads), the same with two per node for
 * both (cb_config_list "*:2"), and none (automatic: these blocks do not
 * interleave, so independent access).
 *
 * Rank r's block of n_r = 1000 + 97 r doubles (value = global index) lies
 * at an odd byte offset after 13 bytes the test wrote first; the memory
 * side is a vector of stride 2 (packed on the way). write_at_all, the
 * file's bytes checked by POSIX pread against an image computed here;
 * read_at_all back in another split (equal parts); a read_at_all that
 * reaches past the end (every rank the same range: the extents
 * interleave) counts only what is there; write_all / read_all at the
 * individual pointer after a seek.
 *
 * Usage: io_coll [DIR] (the file goes to a directory made under DIR,
 * removed at the end). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include "test/mpi/mtest.h"

#define PRE 13

static int rank, size;

static int nof(int r)
{
    return 1000 + 97 * r;
}

static int first(int r) /* global index of rank r's first double */
{
    int k = 0;
    for (int q = 0; q < r; q++)
        k += nof(q);
    return k;
}

static void one(const char *path, const char *what, MPI_Info info)
{
    int total = first(size);
    if (rank == 0) {
        unsigned char pre[PRE];
        memset(pre, 0x33, sizeof pre);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        mt_ok(fd >= 0 && pwrite(fd, pre, PRE, 0) == PRE, "%s: file made by POSIX, %d bytes 0x33", what, PRE);
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    mt_is_int(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, info, &fh), MPI_SUCCESS, "%s: open", what);

    /* write_at_all from a strided memory layout */
    int n = nof(rank), k0 = first(rank);
    double *mem = calloc(2 * (size_t)n, sizeof *mem);
    for (int k = 0; k < n; k++)
        mem[2 * k] = (double)(k0 + k);
    MPI_Datatype vec;
    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Status s;
    int cnt = -1, el = -1;
    int err = MPI_File_write_at_all(fh, PRE + 8 * (MPI_Offset)k0, mem, 1, vec, &s);
    MPI_Get_count(&s, vec, &cnt);
    MPI_Get_elements(&s, MPI_DOUBLE, &el);
    mt_ok(err == MPI_SUCCESS && cnt == 1 && el == n,
          "%s: write_at_all of 1 vector of %d doubles at byte %d (count %d, elements %d)", what, n,
          PRE + 8 * k0, cnt, el);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    size_t fsz = PRE + 8 * (size_t)total;
    if (rank == 0) {
        unsigned char *img = malloc(fsz), *got = malloc(fsz + 8);
        memset(img, 0x33, PRE);
        for (int k = 0; k < total; k++) {
            double x = (double)k;
            memcpy(img + PRE + 8 * (size_t)k, &x, 8);
        }
        int fd = open(path, O_RDONLY);
        ssize_t g = pread(fd, got, fsz + 8, 0);
        close(fd);
        mt_ok(g == (ssize_t)fsz && memcmp(img, got, fsz) == 0,
              "%s: the file (%zd bytes) = 13 x 0x33, then double k = k for k < %d", what, g, total);
        free(img);
        free(got);
    }

    /* read_at_all in equal parts */
    int a = total * rank / size, b = total * (rank + 1) / size;
    double *back = calloc((size_t)(b - a) + 1, sizeof *back);
    cnt = -1;
    err = MPI_File_read_at_all(fh, PRE + 8 * (MPI_Offset)a, back, b - a, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    int ok = err == MPI_SUCCESS && cnt == b - a;
    for (int k = 0; ok && k < b - a; k++)
        ok = back[k] == (double)(a + k);
    mt_ok(ok, "%s: read_at_all of doubles [%d, %d), each its index (count %d)", what, a, b, cnt);

    /* past the end: 100 doubles from 50 before it, every rank alike */
    double tail[100];
    memset(tail, 0, sizeof tail);
    cnt = -1;
    err = MPI_File_read_at_all(fh, PRE + 8 * (MPI_Offset)(total - 50), tail, 100, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    ok = err == MPI_SUCCESS && cnt == 50;
    for (int k = 0; ok && k < 50; k++)
        ok = tail[k] == (double)(total - 50 + k);
    mt_ok(ok, "%s: read_at_all across the end: count 50 (got %d), the last 50 doubles", what, cnt);

    /* the individual pointer: write_all of rank r's block again, doubled */
    for (int k = 0; k < n; k++)
        mem[2 * k] = 2.0 * (k0 + k);
    MPI_File_seek(fh, PRE + 8 * (MPI_Offset)k0, MPI_SEEK_SET);
    err = MPI_File_write_all(fh, mem, 1, vec, &s);
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    mt_ok(err == MPI_SUCCESS && pos == PRE + 8 * (MPI_Offset)(k0 + n),
          "%s: write_all at the individual pointer moves it past the block (%lld)", what, (long long)pos);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_seek(fh, PRE + 8 * (MPI_Offset)a, MPI_SEEK_SET);
    cnt = -1;
    err = MPI_File_read_all(fh, back, b - a, MPI_DOUBLE, &s);
    MPI_Get_count(&s, MPI_DOUBLE, &cnt);
    ok = err == MPI_SUCCESS && cnt == b - a;
    for (int k = 0; ok && k < b - a; k++)
        ok = back[k] == 2.0 * (a + k);
    mt_ok(ok, "%s: read_all at the individual pointer: the doubled values (count %d)", what, cnt);

    MPI_File_close(&fh);
    MPI_Type_free(&vec);
    free(mem);
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
    char dir[512], path[600];
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(dir, sizeof dir, "%s/io_coll.%d", argc > 1 ? argv[1] : ".", id);
    snprintf(path, sizeof path, "%s/f", dir);
    if (rank == 0)
        mt_ok(mkdir(dir, 0755) == 0, "directory %s made", dir);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Info many, forced, two;
    MPI_Info_create(&many);
    MPI_Info_set(many, "romio_cb_write", "enable");
    MPI_Info_set(many, "romio_cb_read", "enable");
    MPI_Info_set(many, "cb_buffer_size", "4096");
    MPI_Info_set(many, "cb_nodes", "1");
    MPI_Info_create(&forced);
    MPI_Info_set(forced, "romio_cb_write", "enable");
    MPI_Info_set(forced, "romio_cb_read", "enable");
    MPI_Info_set(forced, "cb_buffer_size", "8192");
    MPI_Info_dup(forced, &two);
    MPI_Info_set(two, "cb_config_list", "*:2");
    one(path, "two-phase, cb 4096, cb_nodes 1", many);
    one(path, "two-phase, cb 8192", forced);
    one(path, "two-phase, cb 8192, 2 aggregators per node", two);
    one(path, "automatic", MPI_INFO_NULL);
    MPI_Info_free(&many);
    MPI_Info_free(&forced);
    MPI_Info_free(&two);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(rmdir(dir) == 0, "directory removed");
    mt_done();
    MPI_Finalize();
    return 0;
}
