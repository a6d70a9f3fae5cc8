/* MPI test: the file object and contiguous access (runtime/io/PLAN.md
 * stage 1) on 1 and 2 ranks. Open with every amode flag, sizes, group,
 * amode, info, sync; reads and writes at explicit offsets and with the
 * individual pointer, independent, collective and split collective, from
 * contiguous and non-contiguous memory; seek, position, byte offset,
 * view, type extent; short reads at the end of the file; c2f/f2c. The
 * file's bytes are checked against an image computed here, read back by
 * POSIX pread. argv[1]: a directory for the files (made by io_basic.sh). */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iotest.h"

static int rank, size;
static char dir[900];

static void path(char *out, const char *name)
{
    snprintf(out, 1024, "%s/%s", dir, name);
}

/* the value of byte i of the main file's image */
static unsigned char pat(long i)
{
    return (unsigned char)(i * 7 + 3 + i / 251);
}

static int count_of(MPI_Status *st, MPI_Datatype t)
{
    int c = -7;
    MPI_Get_count(st, t, &c);
    return c;
}

/* layout of the main file: A: N * 4096 bytes by write_at (rank r its
 * block); B: N * 100 ints by write_at_all; C: N * 800 bytes by the
 * individual pointer (write 300, write_all 200, write_all_begin/end 300);
 * D: N * 160 bytes from a vector type in memory (write_at), E: N * 160
 * bytes by write_at_all_begin/end of the vector type */
#define A_LEN 4096
#define B_INTS 100
#define C_LEN 800
#define D_LEN 160

static void main_file(void)
{
    char p[1024];
    path(p, "main.dat");
    long a0 = 0, b0 = (long)size * A_LEN, c0 = b0 + (long)size * B_INTS * 4, d0 = c0 + (long)size * C_LEN,
         e0 = d0 + (long)size * D_LEN, total = e0 + (long)size * D_LEN;
    unsigned char *img = malloc((size_t)total);
    for (long i = 0; i < total; i++)
        img[i] = pat(i);
    /* B holds ints: the image's bytes there are the ints' bytes */
    for (long k = 0; k < (long)size * B_INTS; k++) {
        int v = (int)(k * 1000 + 17);
        memcpy(img + b0 + 4 * k, &v, 4);
    }

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "4096");
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "file_perm", "0640");
    MPI_Info_set(info, "no_such_key_here", "1");
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, info, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open CREATE|EXCL|RDWR a new file");
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS)
        return;
    struct stat st;
    mt_ok(stat(p, &st) == 0 && (st.st_mode & 0777) == 0640, "file_perm 0640 is the new file's mode");
    int amode = -1;
    MPI_File_get_amode(fh, &amode);
    mt_is_int(amode, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, "get_amode");
    MPI_Group g, wg;
    int cmp = -1;
    MPI_File_get_group(fh, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    mt_is_int(cmp, MPI_IDENT, "get_group is MPI_COMM_WORLD's group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* info in effect */
    MPI_Info used;
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_File_get_info(fh, &used);
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "4096"), "get_info: cb_buffer_size 4096 as set");
    MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "enable"), "get_info: romio_cb_write enable as set");
    MPI_Info_get(used, "ind_rd_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "4194304"), "get_info: ind_rd_buffer_size's default 4194304");
    MPI_Info_get(used, "file_perm", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "0640"), "get_info: file_perm 0640");
    MPI_Info_get(used, "no_such_key_here", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(!flag, "get_info: an unknown key is not returned");
    MPI_Info_free(&used);
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "1");
    MPI_Info_set(info, "romio_ds_read", "disable");
    mt_is_int(MPI_File_set_info(fh, info), MPI_SUCCESS, "set_info");
    MPI_Info_free(&info);
    MPI_File_get_info(fh, &used);
    MPI_Info_get(used, "cb_nodes", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "1"), "get_info after set_info: cb_nodes 1");
    MPI_Info_get(used, "romio_ds_read", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "disable"), "get_info after set_info: romio_ds_read disable");
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "4096"), "get_info after set_info: cb_buffer_size kept");
    MPI_Info_free(&used);

    /* the default view */
    MPI_Offset disp = -1;
    MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING] = "";
    mt_is_int(MPI_File_get_view(fh, &disp, &et, &ft, rep), MPI_SUCCESS, "get_view");
    mt_ok(disp == 0 && et == MPI_BYTE && ft == MPI_BYTE && !strcmp(rep, "native"),
          "the default view: 0, MPI_BYTE, MPI_BYTE, native");
    MPI_Aint ext = -1;
    MPI_File_get_type_extent(fh, MPI_INT, &ext);
    mt_is_int(ext, (long)sizeof(int), "get_type_extent(MPI_INT)");
    MPI_Datatype rs;
    MPI_Type_create_resized(MPI_INT, 0, 24, &rs);
    MPI_Type_commit(&rs);
    MPI_File_get_type_extent(fh, rs, &ext);
    mt_is_int(ext, 24, "get_type_extent of a resized type: its extent");
    MPI_Type_free(&rs);

    MPI_Status st1;
    /* A: write_at, each rank its block */
    rc = MPI_File_write_at(fh, a0 + (MPI_Offset)rank * A_LEN, img + a0 + rank * A_LEN, A_LEN, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == A_LEN, "write_at %d bytes, status count", A_LEN);
    /* B: write_at_all of ints */
    int ints[B_INTS];
    for (int k = 0; k < B_INTS; k++)
        ints[k] = (rank * B_INTS + k) * 1000 + 17;
    rc = MPI_File_write_at_all(fh, b0 + (MPI_Offset)rank * B_INTS * 4, ints, B_INTS, MPI_INT, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_INT) == B_INTS, "write_at_all %d ints, status count", B_INTS);
    /* C: the individual pointer */
    MPI_Offset pos = -1, mine = c0 + (MPI_Offset)rank * C_LEN;
    mt_is_int(MPI_File_seek(fh, mine, MPI_SEEK_SET), MPI_SUCCESS, "seek SET");
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, mine, "get_position after seek SET");
    rc = MPI_File_write(fh, img + mine, 300, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 300, "write 300 bytes at the pointer");
    rc = MPI_File_write_all(fh, img + mine + 300, 200, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 200, "write_all 200 bytes at the pointer");
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, mine + 500, "the pointer moved by 500");
    rc = MPI_File_write_all_begin(fh, img + mine + 500, 300, MPI_BYTE);
    mt_is_int(rc, MPI_SUCCESS, "write_all_begin");
    rc = MPI_File_write_all_end(fh, img + mine + 500, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 300, "write_all_end: status count 300");
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, mine + C_LEN, "the pointer moved by 800");
    /* D and E: memory through a vector type (10 blocks of 4 ints, stride 8) */
    MPI_Datatype vec;
    MPI_Type_vector(10, 4, 8, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int mem[80];
    for (int k = 0; k < 80; k++)
        mem[k] = -1;
    for (int b = 0; b < 10; b++)
        memcpy(&mem[b * 8], img + d0 + rank * D_LEN + b * 16, 16);
    rc = MPI_File_write_at(fh, d0 + (MPI_Offset)rank * D_LEN, mem, 1, vec, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, vec) == 1 && count_of(&st1, MPI_INT) == 40,
          "write_at of a vector type (non-contiguous memory)");
    for (int b = 0; b < 10; b++)
        memcpy(&mem[b * 8], img + e0 + rank * D_LEN + b * 16, 16);
    rc = MPI_File_write_at_all_begin(fh, e0 + (MPI_Offset)rank * D_LEN, mem, 1, vec);
    mt_is_int(rc, MPI_SUCCESS, "write_at_all_begin of a vector type");
    rc = MPI_File_write_at_all_end(fh, mem, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_INT) == 40, "write_at_all_end: 40 ints");

    mt_is_int(MPI_File_sync(fh), MPI_SUCCESS, "sync");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_Offset fsz = -1;
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, total, "get_size is the whole image");
    mt_ok(io_file_is(p, img, total), "the file's bytes (POSIX pread) are the image, %ld bytes", total);

    /* read back: each rank the other's parts too */
    int other = (rank + 1) % size;
    unsigned char *buf = malloc(A_LEN + 100);
    memset(buf, 0, A_LEN);
    rc = MPI_File_read_at(fh, a0 + (MPI_Offset)other * A_LEN, buf, A_LEN, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == A_LEN && !memcmp(buf, img + a0 + other * A_LEN, A_LEN),
          "read_at of rank %d's block", other);
    int back[B_INTS];
    rc = MPI_File_read_at_all(fh, b0 + (MPI_Offset)other * B_INTS * 4, back, B_INTS, MPI_INT, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_INT) == B_INTS && !memcmp(back, img + b0 + other * B_INTS * 4, 400),
          "read_at_all of rank %d's ints", other);
    MPI_File_seek(fh, c0 + (MPI_Offset)other * C_LEN, MPI_SEEK_SET);
    memset(buf, 0, C_LEN);
    rc = MPI_File_read(fh, buf, 100, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 100, "read 100 at the pointer");
    rc = MPI_File_read_all(fh, buf + 100, 300, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 300, "read_all 300 at the pointer");
    rc = MPI_File_read_all_begin(fh, buf + 400, 400, MPI_BYTE);
    mt_is_int(rc, MPI_SUCCESS, "read_all_begin");
    rc = MPI_File_read_all_end(fh, buf + 400, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 400, "read_all_end: 400");
    mt_ok(!memcmp(buf, img + c0 + other * C_LEN, C_LEN), "the pointer's reads give rank %d's region", other);
    /* MPI_SEEK_CUR back and forth */
    MPI_File_seek(fh, -(MPI_Offset)C_LEN, MPI_SEEK_CUR);
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, c0 + (MPI_Offset)other * C_LEN, "seek CUR -800");
    MPI_File_seek(fh, 10, MPI_SEEK_CUR);
    unsigned char one = 0;
    MPI_File_read(fh, &one, 1, MPI_BYTE, MPI_STATUS_IGNORE);
    mt_is_int(one, img[c0 + other * C_LEN + 10], "seek CUR +10 then read one byte");
    for (int k = 0; k < 80; k++)
        mem[k] = -1;
    rc = MPI_File_read_at(fh, d0 + (MPI_Offset)other * D_LEN, mem, 1, vec, &st1);
    int good = rc == MPI_SUCCESS && count_of(&st1, vec) == 1;
    for (int b = 0; b < 10; b++)
        good = good && !memcmp(&mem[b * 8], img + d0 + other * D_LEN + b * 16, 16) && mem[b * 8 + 4] == -1 &&
               mem[b * 8 + 7] == -1;
    mt_ok(good, "read_at into a vector type: the blocks filled, the gaps untouched");
    for (int k = 0; k < 80; k++)
        mem[k] = -1;
    rc = MPI_File_read_at_all_begin(fh, e0 + (MPI_Offset)other * D_LEN, mem, 1, vec);
    rc = rc == MPI_SUCCESS ? MPI_File_read_at_all_end(fh, mem, &st1) : rc;
    good = rc == MPI_SUCCESS && count_of(&st1, MPI_INT) == 40;
    for (int b = 0; b < 10; b++)
        good = good && !memcmp(&mem[b * 8], img + e0 + other * D_LEN + b * 16, 16) && mem[b * 8 + 5] == -1;
    mt_ok(good, "read_at_all_begin/end into a vector type");

    /* the end of the file: short reads, MPI_SEEK_END */
    rc = MPI_File_read_at(fh, total - 10, buf, 100, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 10 && !memcmp(buf, img + total - 10, 10),
          "read_at 100 bytes 10 before the end: count 10");
    rc = MPI_File_read_at(fh, total + 50, buf, 100, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 0, "read_at beyond the end: count 0");
    rc = MPI_File_read_at(fh, total - 6, back, 3, MPI_INT, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_INT) == MPI_UNDEFINED && count_of(&st1, MPI_BYTE) == 6,
          "3 ints 6 bytes before the end: 6 bytes, MPI_Get_count of MPI_INT undefined");
    MPI_File_seek(fh, -10, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, total - 10, "seek END -10");
    rc = MPI_File_read(fh, buf, 100, MPI_BYTE, &st1);
    MPI_File_get_position(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 10 && pos == total,
          "read at the pointer across the end: 10 bytes, the pointer at the end");
    MPI_Offset bo = -1;
    MPI_File_get_byte_offset(fh, 12345, &bo);
    mt_is_int(bo, 12345, "get_byte_offset in the default view");
    mt_is_int(MPI_File_read_at(fh, 0, NULL, 0, MPI_BYTE, &st1), MPI_SUCCESS, "a read of 0 elements");
    mt_is_int(count_of(&st1, MPI_BYTE), 0, "its count is 0");

    /* sizes: shrink, grow, preallocate (never shrinks) */
    MPI_Barrier(MPI_COMM_WORLD);
    mt_is_int(MPI_File_set_size(fh, total - 100), MPI_SUCCESS, "set_size shrinks");
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, total - 100, "get_size after the shrink");
    mt_ok(io_file_is(p, img, total - 100), "the shrunk file is the image's start");
    mt_is_int(MPI_File_set_size(fh, total + 5000), MPI_SUCCESS, "set_size grows");
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, total + 5000, "get_size after the growth");
    memset(buf, 0x55, 200);
    rc = MPI_File_read_at(fh, total - 100, buf, 200, MPI_BYTE, &st1);
    good = rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 200;
    for (int k = 0; k < 200; k++)
        good = good && buf[k] == 0;
    mt_ok(good, "the grown part reads as zeros");
    mt_is_int(MPI_File_preallocate(fh, 100), MPI_SUCCESS, "preallocate less than the size");
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, total + 5000, "preallocate does not shrink");
    mt_is_int(MPI_File_preallocate(fh, total + 9000), MPI_SUCCESS, "preallocate more than the size");
    MPI_File_get_size(fh, &fsz);
    mt_is_int(fsz, total + 9000, "preallocate grows the size");

    /* Fortran handles */
    MPI_Fint f = MPI_File_c2f(fh);
    mt_ok(f != 0 && MPI_File_f2c(f) == fh, "c2f then f2c gives the file back");
    mt_is_int(MPI_File_c2f(MPI_FILE_NULL), 10 << 24, "c2f(MPI_FILE_NULL) is kind 10, index 0");
    mt_ok(MPI_File_f2c(10 << 24) == MPI_FILE_NULL, "f2c of kind 10 index 0 is MPI_FILE_NULL");
    mt_ok(MPI_File_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_FILE_NULL, "f2c of a communicator's handle is MPI_FILE_NULL");

    MPI_Type_free(&vec);
    free(buf);
    free(img);
    mt_is_int(MPI_File_close(&fh), MPI_SUCCESS, "close");
    mt_ok(fh == MPI_FILE_NULL, "close sets the handle to MPI_FILE_NULL");
    mt_ok(MPI_File_f2c(f) == MPI_FILE_NULL, "f2c of a closed file's handle is MPI_FILE_NULL");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_is_int(MPI_File_delete(p, MPI_INFO_NULL), MPI_SUCCESS, "delete");
    MPI_Barrier(MPI_COMM_WORLD);
    mt_ok(access(p, F_OK) != 0 && errno == ENOENT, "the deleted file is gone");
}

/* the other amode flags */
static void modes(void)
{
    char p[1024];
    MPI_File fh;
    MPI_Status st1;
    unsigned char b[64];

    /* DELETE_ON_CLOSE (and UNIQUE_OPEN, WRONLY) */
    path(p, "doc.dat");
    int rc = MPI_File_open(MPI_COMM_WORLD, p,
                           MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN,
                           MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open CREATE|WRONLY|DELETE_ON_CLOSE|UNIQUE_OPEN");
    memset(b, rank + 1, sizeof b);
    mt_is_int(MPI_File_write_at(fh, rank * 64, b, 64, MPI_BYTE, &st1), MPI_SUCCESS, "write_at on a WRONLY file");
    MPI_Barrier(MPI_COMM_WORLD);
    mt_ok(access(p, F_OK) == 0, "the file exists before close");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 removes it inside its close */
    mt_ok(access(p, F_OK) != 0 && errno == ENOENT, "DELETE_ON_CLOSE: gone after close");

    /* APPEND: the pointer starts at the end */
    path(p, "app.dat");
    if (rank == 0) {
        int fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        memset(b, 9, sizeof b);
        for (int k = 0; k < 19; k++)
            (void)!write(fd, b, 64);
        (void)!write(fd, b, 18); /* 1234 bytes */
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open RDWR|APPEND an existing file");
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    mt_is_int(pos, 1234, "APPEND: the individual pointer starts at the end");
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has opened before rank 0 appends */
    if (rank == 0) {
        memset(b, 42, 10);
        MPI_File_write(fh, b, 10, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 has written */
    struct stat sb;
    mt_ok(stat(p, &sb) == 0 && sb.st_size == 1244, "APPEND: rank 0's write went to the end (1244 bytes)");

    /* CREATE without EXCL on an existing file keeps its bytes; RDONLY reads */
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open CREATE|WRONLY an existing file");
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open RDONLY");
    MPI_Offset sz = -1;
    MPI_File_get_size(fh, &sz);
    mt_is_int(sz, 1244, "CREATE kept the existing bytes");
    memset(b, 0, sizeof b);
    rc = MPI_File_read_at(fh, 1230, b, 64, MPI_BYTE, &st1);
    mt_ok(rc == MPI_SUCCESS && count_of(&st1, MPI_BYTE) == 14 && b[3] == 9 && b[4] == 42 && b[13] == 42,
          "read_at on a RDONLY file: 14 bytes, the appended ones 42");
    mt_is_int(MPI_File_sync(fh), MPI_SUCCESS, "sync on a RDONLY file");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(p, MPI_INFO_NULL);

    /* SEQUENTIAL: opens, says so */
    path(p, "seq.dat");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                       MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open CREATE|WRONLY|SEQUENTIAL");
    int amode = 0;
    MPI_File_get_amode(fh, &amode);
    mt_is_int(amode, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, "get_amode of a SEQUENTIAL file");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(p, MPI_INFO_NULL);

    /* a file on a sub-communicator: each rank alone (MPI_COMM_SELF) */
    char mine[64];
    snprintf(mine, sizeof mine, "self%d.dat", rank);
    path(p, mine);
    rc = MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                       MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open on MPI_COMM_SELF");
    int n = 0;
    MPI_Group g;
    MPI_File_get_group(fh, &g);
    MPI_Group_size(g, &n);
    MPI_Group_free(&g);
    mt_is_int(n, 1, "its group has one rank");
    MPI_File_close(&fh);
    mt_ok(access(p, F_OK) != 0, "removed at close");

    /* hints: values that do not parse are ignored, the standard's
     * collective_buffering sets both of ROMIO's, a list of styles */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "12x");
    MPI_Info_set(info, "ind_wr_buffer_size", "-5");
    MPI_Info_set(info, "collective_buffering", "true");
    MPI_Info_set(info, "access_style", "read_once,sequential");
    MPI_Info_set(info, "striping_unit", "65536");
    MPI_Info_set(info, "romio_ds_write", "sometimes");
    MPI_Info_set(info, "cb_config_list", "*:3");
    rc = MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "open with odd hints");
    MPI_File_get_info(fh, &used);
    static const char *const want[][2] = {
        {"cb_buffer_size", "2097152"}, {"ind_wr_buffer_size", "524288"}, {"romio_cb_read", "enable"},
        {"romio_cb_write", "enable"},   {"access_style", "read_once"},    {"striping_unit", "65536"},
        {"romio_ds_write", "automatic"}, {"cb_config_list", "*:3"}};
    for (int k = 0; k < (int)(sizeof want / sizeof want[0]); k++) {
        char v[MPI_MAX_INFO_VAL + 1] = "";
        int flag = 0;
        MPI_Info_get(used, want[k][0], MPI_MAX_INFO_VAL, v, &flag);
        mt_ok(flag && !strcmp(v, want[k][1]), "get_info: %s is %s", want[k][0], want[k][1]);
    }
    MPI_Info_free(&used);
    MPI_File_close(&fh);

    /* no cb_config_list: aggregators per node are automatic (one count for
     * writes, another for reads), which "*:k" cannot say */
    rc = MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                       MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open without hints");
    MPI_File_get_info(fh, &used);
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 1;
    MPI_Info_get(used, "cb_config_list", MPI_MAX_INFO_VAL, v, &flag);
    mt_is_int(flag, getenv("RDMPI_IO_CB_PER_NODE") && atoi(getenv("RDMPI_IO_CB_PER_NODE")) > 0,
              "get_info: cb_config_list only when set (got '%s')", v);
    MPI_Info_free(&used);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc < 2) {
        printf("not ok [rank %d] usage: io_basic DIR\n", rank);
        MPI_Finalize();
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    main_file();
    modes();
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}
