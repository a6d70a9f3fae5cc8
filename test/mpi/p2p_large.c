/* MPI test: large messages between ranks 0 and 1 (other ranks idle).
 *   - beyond 2 GiB: MPI_Type_contiguous of 1 MiB bytes, count 2049 (2 GiB +
 *     1 MiB), sent 0 -> 1 while the receive is posted late (unexpected
 *     rendezvous); every 64-bit word checked against its pattern (exact:
 *     word i is a + i * b, so no other content passes, whatever the buffer
 *     held before); Get_count 2049 and Get_elements
 *     MPI_UNDEFINED (2^31 + 2^20 bytes do not fit an int)
 *   - with a third argument "c": the same buffer back 1 -> 0 (another
 *     pattern) by MPI_Send_c / MPI_Recv_c, a count of 2^31 + 2^20
 *     MPI_BYTEs; MPI_Get_count_c that count, MPI_Get_count MPI_UNDEFINED
 *   - 256 MiB of MPI_BYTE sent 1 -> 0 into a pre-posted receive
 * Memory: about 2.2 GiB on each of the two ranks, freed before the second
 * part. Arguments (for small machines, e.g. the RDMA test VM): the first
 * part's count of 1 MiB blocks, the second part's MiB. */
#include "test/mpi/p2p_common.c"

#define MIB (1024 * 1024)

/* The pattern: word i is a + i * b (a, b from the seed, b odd), so every
 * word of a message differs from every other and a word out of place or
 * changed is seen; filled and checked by loops the compiler vectorizes
 * (O3 here: a hash per word was a sixth of a run's CPU time, more under
 * the sanitizers). */
static uint64_t pat_a(uint64_t seed) { return p2p_mix(seed); }
static uint64_t pat_b(uint64_t seed) { return p2p_mix(seed + 1) | 1; }

__attribute__((optimize("O3"))) static void fill64(uint64_t *w, size_t nw, uint64_t seed)
{
    const uint64_t a = pat_a(seed), b = pat_b(seed);
    for (size_t i = 0; i < nw; i++)
        w[i] = a + i * b;
}

__attribute__((optimize("O3"))) static size_t bad64(const uint64_t *w, size_t nw, uint64_t seed, size_t *first)
{
    const uint64_t a = pat_a(seed), b = pat_b(seed);
    size_t bad = 0;
    for (size_t i = 0; i < nw; i++)
        bad += w[i] != a + i * b;
    *first = (size_t)-1;
    for (size_t i = 0; bad && i < nw; i++)
        if (w[i] != a + i * b) {
            *first = i;
            break;
        }
    return bad;
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    const int nblocks = argc > 1 ? atoi(argv[1]) : 2049;
    if (p2p_size < 2 || p2p_rank > 1) {
        mt_ok(1, "rank %d idle", p2p_rank);
        MPI_Finalize();
        return mt_done();
    }
    MPI_Datatype mib;
    mt_is_int(MPI_Type_contiguous(MIB, MPI_BYTE, &mib), MPI_SUCCESS, "Type_contiguous of 1 MiB bytes");
    mt_is_int(MPI_Type_commit(&mib), MPI_SUCCESS, "Type_commit");
    int tsize = -1;
    MPI_Type_size(mib, &tsize);
    mt_is_int(tsize, MIB, "its size");

    size_t bytes = (size_t)nblocks * MIB, nw = bytes / 8;
    uint64_t *w = malloc(bytes);
    mt_ok(w != NULL, "%zu bytes allocated", bytes);
    const uint64_t seed = 0x1234567890abcdefULL;
    double t0 = MPI_Wtime();
    if (p2p_rank == 0) {
        fill64(w, nw, seed);
        MPI_Send(&nw, 1, MPI_UINT64_T, 1, 1, MPI_COMM_WORLD);
        mt_is_int(MPI_Send(w, nblocks, mib, 1, 2, MPI_COMM_WORLD), MPI_SUCCESS, "Send of %d x 1 MiB (%zu bytes)", nblocks,
                  bytes);
    } else {
        uint64_t ready = 0;
        MPI_Status st;
        int c = -1, e = -1;
        MPI_Recv(&ready, 1, MPI_UINT64_T, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(ready == nw, "the sender's word count (%llu)", (unsigned long long)ready);
        p2p_sleep_ms(200); /* the large message arrives unexpected */
        mt_is_int(MPI_Recv(w, nblocks, mib, 0, 2, MPI_COMM_WORLD, &st), MPI_SUCCESS, "Recv of %d x 1 MiB", nblocks);
        MPI_Get_count(&st, mib, &c);
        MPI_Get_elements(&st, mib, &e);
        mt_is_int(c, nblocks, "Get_count in 1 MiB units");
        if (bytes > 2147483647u)
            mt_is_int(e, MPI_UNDEFINED, "Get_elements of %zu bytes: MPI_UNDEFINED (does not fit an int)", bytes);
        else
            mt_is_int(e, (long long)bytes, "Get_elements: the bytes");
        size_t first;
        size_t bad = bad64(w, nw, seed, &first);
        mt_ok(bad == 0, "every 64-bit word of the pattern arrived (%zu bad, first at word %zu)", bad, first);
    }
    printf("# [rank %d] %zu bytes in %.2f s\n", p2p_rank, bytes, MPI_Wtime() - t0);
    if (argc > 3 && strcmp(argv[3], "c") == 0) {
        /* back by the large-count calls, on the pages already touched */
        MPI_Count n = (MPI_Count)bytes;
        if (p2p_rank == 1) {
            fill64(w, nw, seed + 7);
            mt_is_int(MPI_Send_c(w, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD), MPI_SUCCESS, "MPI_Send_c of %lld bytes",
                      (long long)n);
        } else {
            MPI_Status st;
            MPI_Count c = -1;
            int ci = 0;
            mt_is_int(MPI_Recv_c(w, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &st), MPI_SUCCESS, "MPI_Recv_c of %lld bytes",
                      (long long)n);
            MPI_Get_count_c(&st, MPI_BYTE, &c);
            MPI_Get_count(&st, MPI_BYTE, &ci);
            mt_ok(c == n && ci == MPI_UNDEFINED, "MPI_Get_count_c: %lld (%lld); MPI_Get_count: MPI_UNDEFINED",
                  (long long)n, (long long)c);
            size_t first;
            size_t bad = bad64(w, nw, seed + 7, &first);
            mt_ok(bad == 0, "MPI_Recv_c: every 64-bit word (%zu bad, first at word %zu)", bad, first);
        }
        printf("# [rank %d] back by the _c calls: %.2f s in all\n", p2p_rank, MPI_Wtime() - t0);
        /* and on by a partitioned send of one partition of n bytes (a
         * count beyond 2^31: MPI_Psend_init's count is an MPI_Count) */
        MPI_Request pr = MPI_REQUEST_NULL;
        int prc;
        if (p2p_rank == 0) {
            fill64(w, nw, seed + 9);
            prc = MPI_Psend_init(w, 1, n, MPI_BYTE, 1, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &pr);
            if (prc == MPI_SUCCESS)
                prc = MPI_Start(&pr);
            if (prc == MPI_SUCCESS)
                prc = MPI_Pready(0, pr);
        } else {
            prc = MPI_Precv_init(w, 1, n, MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &pr);
            if (prc == MPI_SUCCESS)
                prc = MPI_Start(&pr);
        }
        if (prc == MPI_SUCCESS)
            prc = MPI_Wait(&pr, MPI_STATUS_IGNORE);
        mt_is_int(prc, MPI_SUCCESS, "a partitioned %s of one partition of %lld bytes",
                  p2p_rank ? "receive" : "send", (long long)n);
        if (pr != MPI_REQUEST_NULL)
            MPI_Request_free(&pr);
        if (p2p_rank == 1) {
            size_t first;
            size_t bad = bad64(w, nw, seed + 9, &first);
            mt_ok(bad == 0, "the partition: every 64-bit word (%zu bad, first at word %zu)", bad, first);
        }
    }
    free(w);
    MPI_Type_free(&mib);
    mt_ok(mib == MPI_DATATYPE_NULL, "Type_free sets the handle to MPI_DATATYPE_NULL");

    /* 256 MiB the other way, receive pre-posted */
    bytes = (size_t)(argc > 2 ? atoi(argv[2]) : 256) * MIB;
    nw = bytes / 8;
    w = malloc(bytes);
    if (p2p_rank == 1) {
        int go;
        fill64(w, nw, ~seed);
        MPI_Recv(&go, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_is_int(MPI_Send(w, (int)bytes, MPI_BYTE, 0, 4, MPI_COMM_WORLD), MPI_SUCCESS, "Send of %zu MiB", bytes / MIB);
    } else {
        MPI_Request r;
        MPI_Status st;
        int go = 1, c = -1;
        MPI_Irecv(w, (int)bytes, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &r);
        MPI_Send(&go, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Wait(&r, &st);
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_is_int(c, (long long)bytes, "%zu MiB received: count", bytes / MIB);
        size_t first;
        size_t bad = bad64(w, nw, ~seed, &first);
        mt_ok(bad == 0, "%zu MiB: every word (%zu bad, first at %zu)", bytes / MIB, bad, first);
    }
    free(w);
    MPI_Finalize();
    return mt_done();
}
