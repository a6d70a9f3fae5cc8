/* MPI test: the large-count packing calls (MPI_Pack_c, MPI_Unpack_c,
 * MPI_Pack_size_c, MPI_Pack_external_c, MPI_Unpack_external_c,
 * MPI_Pack_external_size_c), each its int twin's code: exact bytes and
 * positions, a size beyond an int, the errors. 1 rank. */
#include <stdint.h>

#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int src[12], dst[12];
    for (int i = 0; i < 12; i++) {
        src[i] = 100 + i;
        dst[i] = -1;
    }
    MPI_Datatype v; /* 3 blocks of 2 ints, stride 4: ints 0 1, 4 5, 8 9 */
    MPI_Type_vector(3, 2, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    char buf[64];
    MPI_Count pos = 4, sz = -1;
    int isz = -1;
    mt_is_int(MPI_Pack_c(src, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_SUCCESS, "MPI_Pack_c of the vector");
    mt_is_int(pos, 4 + 24, "the position moved by its 24 bytes");
    int packed[6];
    memcpy(packed, buf + 4, sizeof packed);
    mt_ok(packed[0] == 100 && packed[1] == 101 && packed[2] == 104 && packed[3] == 105 && packed[4] == 108 &&
              packed[5] == 109,
          "the packed bytes: ints 0 1 4 5 8 9 of the source");
    pos = 4;
    mt_is_int(MPI_Unpack_c(buf, sizeof buf, &pos, dst, 1, v, MPI_COMM_WORLD), MPI_SUCCESS, "MPI_Unpack_c");
    mt_ok(pos == 28 && dst[0] == 100 && dst[5] == 105 && dst[9] == 109 && dst[2] == -1 && dst[11] == -1,
          "MPI_Unpack_c: the vector's places filled, the holes untouched");
    MPI_Pack_size_c(3, v, MPI_COMM_WORLD, &sz);
    MPI_Pack_size(3, v, MPI_COMM_WORLD, &isz);
    mt_ok(sz == 72 && isz == 72, "MPI_Pack_size_c and MPI_Pack_size: 72 (%lld, %d)", (long long)sz, isz);
    const MPI_Count big = (MPI_Count)1 << 40;
    mt_is_int(MPI_Pack_size_c(big, MPI_INT, MPI_COMM_WORLD, &sz), MPI_SUCCESS, "MPI_Pack_size_c of 2^40 ints");
    mt_is_int(sz, big * 4, "... 2^42 bytes");
    int cls = -1;
    MPI_Error_class(MPI_Pack_size((int)(big >> 11), MPI_INT, MPI_COMM_WORLD, &isz), &cls);
    mt_is_int(cls, MPI_ERR_SIZE, "MPI_Pack_size of 2^29 ints (2^31 bytes do not fit an int): MPI_ERR_SIZE");

    /* external32: big-endian */
    unsigned char ext[32];
    int three[3] = {1, 0x01020304, -2}, back[3] = {0, 0, 0};
    MPI_Count epos = 0, esz = -1;
    MPI_Pack_external_size_c("external32", 3, MPI_INT, &esz);
    mt_is_int(esz, 12, "MPI_Pack_external_size_c: 12");
    mt_is_int(MPI_Pack_external_c("external32", three, 3, MPI_INT, ext, sizeof ext, &epos), MPI_SUCCESS,
              "MPI_Pack_external_c");
    static const unsigned char want[12] = {0, 0, 0, 1, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
    mt_ok(epos == 12 && memcmp(ext, want, 12) == 0, "the external32 bytes, big-endian");
    epos = 0;
    mt_is_int(MPI_Unpack_external_c("external32", ext, 12, &epos, back, 3, MPI_INT), MPI_SUCCESS,
              "MPI_Unpack_external_c");
    mt_ok(epos == 12 && back[0] == 1 && back[1] == 0x01020304 && back[2] == -2, "... the ints back");

    /* the errors */
    pos = 0;
    MPI_Error_class(MPI_Pack_c(src, -1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Pack_c of count -1: MPI_ERR_COUNT");
    pos = 65;
    MPI_Error_class(MPI_Pack_c(src, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_ARG, "MPI_Pack_c at a position past outsize: MPI_ERR_ARG");
    pos = 60;
    MPI_Error_class(MPI_Pack_c(src, 2, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), &cls);
    mt_ok(cls == MPI_ERR_TRUNCATE && pos == 60, "MPI_Pack_c of 8 bytes into 4 left: MPI_ERR_TRUNCATE, position kept");
    MPI_Error_class(MPI_Pack_size_c(INT64_MAX / 2, MPI_INT, MPI_COMM_WORLD, &sz), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Pack_size_c of 2^62 ints: MPI_ERR_COUNT");
    epos = 0;
    MPI_Error_class(MPI_Unpack_external_c("external32", ext, 8, &epos, back, 3, MPI_INT), &cls);
    mt_is_int(cls, MPI_ERR_TRUNCATE, "MPI_Unpack_external_c of 12 bytes from 8: MPI_ERR_TRUNCATE");
    MPI_Type_free(&v);
    printf("done [rank %d] %d checks, %d failed\n", mt_rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}
