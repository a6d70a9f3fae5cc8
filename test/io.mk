# Tests of parallel I/O (runtime/io/, issue 22): one section per part.

# ---- the file object, open/close, contiguous access (PLAN stage 1)


# ---- views, strided independent access, data sieving, locks, datareps (stage 2)


# ---- two-phase collective access (stage 3)


# ---- the shared file pointer and the ordered calls (stage 4)


# ---- nonblocking I/O: the I/O engine (stage 5)

