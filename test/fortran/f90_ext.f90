! f90_ext.f90 - mpif.h, 2 ranks: more of mpi.api (MPI_RSEND,
! MPI_SENDRECV_REPLACE, matched probes and receives, MPI_REQUEST_GET_STATUS,
! the v-collectives, nonblocking collectives, MPI_REDUCE_LOCAL, group
! operations, derived datatypes, MPI_PACK / MPI_UNPACK, a graph topology).
! Exact values.
program f90_ext
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, peer, n, x, y, msg, req, req2, st(MPI_STATUS_SIZE)
  integer :: a(6), b(6), sc(2), sd(2), rc(2), rd(2), g, g2, g3, r1(2), r2(2), t, pos
  integer :: gcomm, idx(2), edges(2), nb(2), nn, ne
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
  integer(kind=MPI_COUNT_KIND) :: csize
  character(len=64) :: pbuf
  double precision :: dv, dw
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call mt_init(rank)
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
  peer = 1 - rank
  call MPI_IS_THREAD_MAIN(flag, ierr)
  call mt_ok(flag, 'MPI_IS_THREAD_MAIN')

  ! ---- MPI_RSEND to a posted receive, MPI_SENDRECV_REPLACE
  y = -1
  call MPI_IRECV(y, 1, MPI_INTEGER, peer, 30, MPI_COMM_WORLD, req, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  x = rank + 300
  call MPI_RSEND(x, 1, MPI_INTEGER, peer, 30, MPI_COMM_WORLD, ierr)
  call MPI_WAIT(req, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. y == peer + 300, 'MPI_RSEND to a posted receive')
  a = rank * 10 + (/ 1, 2, 3, 4, 5, 6 /)
  call MPI_SENDRECV_REPLACE(a, 3, MPI_INTEGER, peer, 31, peer, 31, MPI_COMM_WORLD, st, ierr)
  call mt_ok(all(a(1:3) == peer * 10 + (/ 1, 2, 3 /)) .and. all(a(4:6) == rank * 10 + (/ 4, 5, 6 /)) &
             .and. st(MPI_SOURCE) == peer, 'MPI_SENDRECV_REPLACE of 3 of 6')

  ! ---- MPI_MPROBE / MPI_MRECV, MPI_IMPROBE / MPI_IMRECV, MPI_REQUEST_GET_STATUS
  x = rank + 400
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 32, MPI_COMM_WORLD, ierr)
  call MPI_MPROBE(peer, 32, MPI_COMM_WORLD, msg, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. msg /= MPI_MESSAGE_NULL .and. st(MPI_TAG) == 32, 'MPI_MPROBE: a message')
  y = -1
  call MPI_MRECV(y, 1, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
  call mt_ok(y == peer + 400 .and. msg == MPI_MESSAGE_NULL, 'MPI_MRECV: the value, the message is MPI_MESSAGE_NULL')
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 33, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_IMPROBE(peer, 33, MPI_COMM_WORLD, flag, msg, st, ierr)
  end do
  y = -1
  call MPI_IMRECV(y, 1, MPI_INTEGER, msg, req, ierr)
  call mt_is_int(msg, MPI_MESSAGE_NULL, 'MPI_IMRECV: the message is MPI_MESSAGE_NULL')
  flag = .false.
  do while (.not. flag)
    call MPI_REQUEST_GET_STATUS(req, flag, st, ierr)
  end do
  call mt_ok(req /= MPI_REQUEST_NULL .and. st(MPI_TAG) == 33, 'MPI_REQUEST_GET_STATUS: done, the request kept')
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_is_int(y, peer + 400, 'MPI_IMPROBE / MPI_IMRECV: the value')
  call MPI_MPROBE(MPI_PROC_NULL, 0, MPI_COMM_WORLD, msg, st, ierr)
  call mt_ok(msg == MPI_MESSAGE_NO_PROC .and. st(MPI_SOURCE) == MPI_PROC_NULL, &
             'MPI_MPROBE of MPI_PROC_NULL: MPI_MESSAGE_NO_PROC')

  ! ---- v-collectives
  sc = (/ 1, 2 /)
  sd = (/ 4, 0 /)
  a = (/ 1, 2, 3, 4, 5, 6 /) + 100 * rank
  b = -1
  call MPI_SCATTERV(a, sc, sd, MPI_INTEGER, b, rank + 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  if (rank == 0) call mt_ok(b(1) == 105 .and. b(2) == -1, 'MPI_SCATTERV from rank 1: 1 at displacement 4')
  if (rank == 1) call mt_ok(b(1) == 101 .and. b(2) == 102, 'MPI_SCATTERV from rank 1: 2 at displacement 0')
  rc = (/ 2, 1 /)
  rd = (/ 1, 0 /)
  b = -1
  call MPI_ALLGATHERV(a, 2 - rank, MPI_INTEGER, b, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call mt_ok(all(b(1:3) == (/ 101, 1, 2 /)) .and. b(4) == -1, 'MPI_ALLGATHERV: counts 2, 1 at displacements 1, 0')
  sc = (/ 1, 2 /)
  sd = (/ 0, 1 /)
  rc = (/ 1 + rank, 1 + rank /)
  rd = (/ 0, 2 /)
  b = -1
  call MPI_ALLTOALLV(a, sc, sd, MPI_INTEGER, b, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (rank == 0) call mt_ok(b(1) == 1 .and. b(3) == 101, 'MPI_ALLTOALLV at rank 0')
  if (rank == 1) call mt_ok(all(b(1:4) == (/ 2, 3, 102, 103 /)), 'MPI_ALLTOALLV at rank 1')
  rc = (/ 1, 2 /)
  a(1:3) = (/ 1, 2, 3 /) * (rank + 1)
  b = -1
  call MPI_REDUCE_SCATTER(a, b, rc, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) call mt_ok(b(1) == 3 .and. b(2) == -1, 'MPI_REDUCE_SCATTER: 3 at rank 0')
  if (rank == 1) call mt_ok(b(1) == 6 .and. b(2) == 9, 'MPI_REDUCE_SCATTER: 6, 9 at rank 1')

  ! ---- nonblocking collectives
  call MPI_IBARRIER(MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI_IBARRIER, MPI_WAIT')
  x = -1
  if (rank == 0) x = 77
  call MPI_IBCAST(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_is_int(x, 77, 'MPI_IBCAST')
  dv = 1.25d0 * (rank + 1)
  call MPI_IALLREDUCE(MPI_IN_PLACE, dv, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_is_dbl(dv, 3.75d0, 'MPI_IALLREDUCE with MPI_IN_PLACE: 1.25 + 2.5')
  x = rank + 1
  b = -1
  call MPI_IGATHER(x, 1, MPI_INTEGER, b, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, req, ierr)
  a = rank * 10 + (/ 1, 2, 3, 4, 5, 6 /)
  call MPI_IALLTOALL(a, 1, MPI_INTEGER, r1, 1, MPI_INTEGER, MPI_COMM_WORLD, req2, ierr)
  call MPI_WAIT(req2, MPI_STATUS_IGNORE, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  if (rank == 1) call mt_ok(b(1) == 1 .and. b(2) == 2, 'MPI_IGATHER at rank 1')
  call mt_ok(r1(1) == 1 + rank .and. r1(2) == 11 + rank, 'MPI_IALLTOALL beside MPI_IGATHER')
  x = rank + 2
  call MPI_ISCAN(x, y, 1, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_is_int(y, 2 + 4 * rank, 'MPI_ISCAN with MPI_PROD')
  call MPI_OP_COMMUTATIVE(MPI_SUM, flag, ierr)
  call mt_ok(flag, 'MPI_OP_COMMUTATIVE(MPI_SUM)')
  dw = 0.5d0
  dv = 2
  call MPI_REDUCE_LOCAL(dw, dv, 1, MPI_DOUBLE_PRECISION, MPI_MAX, ierr)
  call mt_is_dbl(dv, 2.0d0, 'MPI_REDUCE_LOCAL with MPI_MAX')

  ! ---- groups
  call MPI_COMM_GROUP(MPI_COMM_WORLD, g, ierr)
  call MPI_GROUP_EXCL(g, 1, (/ 0 /), g2, ierr)
  r1 = (/ 0, 1 /)
  call MPI_GROUP_TRANSLATE_RANKS(g, 2, r1, g2, r2, ierr)
  call mt_ok(r2(1) == MPI_UNDEFINED .and. r2(2) == 0, 'MPI_GROUP_EXCL, MPI_GROUP_TRANSLATE_RANKS')
  call MPI_GROUP_DIFFERENCE(g, g2, g3, ierr)
  call MPI_GROUP_SIZE(g3, n, ierr)
  call mt_is_int(n, 1, 'MPI_GROUP_DIFFERENCE: 1 rank')
  call MPI_GROUP_FREE(g3, ierr)
  call MPI_GROUP_UNION(g2, g, g3, ierr)
  call MPI_GROUP_COMPARE(g, g3, n, ierr)
  call mt_is_int(n, MPI_SIMILAR, 'MPI_GROUP_UNION in another order: MPI_SIMILAR')
  call MPI_GROUP_COMPARE(g, g, n, ierr)
  call mt_is_int(n, MPI_IDENT, 'MPI_GROUP_COMPARE with itself: MPI_IDENT')
  call MPI_GROUP_FREE(g3, ierr)
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_GROUP_FREE(g, ierr)

  ! ---- derived datatypes
  call MPI_TYPE_INDEXED(2, (/ 2, 1 /), (/ 0, 4 /), MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  b = -1
  call MPI_SENDRECV(a, 1, t, peer, 34, b, 3, MPI_INTEGER, peer, 34, MPI_COMM_WORLD, st, ierr)
  call mt_ok(all(b(1:3) == (/ 1, 2, 5 /) + 10 * peer), 'MPI_TYPE_INDEXED: blocks 2, 1 at 0, 4')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_HVECTOR(2, 1, 12_MPI_ADDRESS_KIND, MPI_INTEGER, t, ierr)
  call MPI_TYPE_GET_TRUE_EXTENT(t, lb, ext, ierr)
  call mt_ok(lb == 0 .and. ext == 16, 'MPI_TYPE_CREATE_HVECTOR(2, 1, 12 bytes): true extent 16')
  call MPI_TYPE_SIZE_X(t, csize, ierr)
  call mt_ok(csize == 8, 'MPI_TYPE_SIZE_X: 8 (INTEGER(KIND=MPI_COUNT_KIND))')
  call MPI_TYPE_CREATE_RESIZED(t, -4_MPI_ADDRESS_KIND, 24_MPI_ADDRESS_KIND, g, ierr)
  call MPI_TYPE_GET_EXTENT(g, lb, ext, ierr)
  call mt_ok(lb == -4 .and. ext == 24, 'MPI_TYPE_CREATE_RESIZED: lb -4, extent 24')
  call MPI_TYPE_FREE(g, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_SUBARRAY(2, (/ 3, 2 /), (/ 2, 1 /), (/ 1, 1 /), MPI_ORDER_FORTRAN, MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  b = -1
  call MPI_SENDRECV(a, 1, t, peer, 35, b, 2, MPI_INTEGER, peer, 35, MPI_COMM_WORLD, st, ierr)
  call mt_ok(b(1) == 5 + 10 * peer .and. b(2) == 6 + 10 * peer, 'MPI_TYPE_CREATE_SUBARRAY, MPI_ORDER_FORTRAN: a(2:3, 2)')
  call MPI_TYPE_FREE(t, ierr)

  ! ---- MPI_PACK / MPI_UNPACK
  call MPI_PACK_SIZE(3, MPI_INTEGER, MPI_COMM_WORLD, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n >= 12, 'MPI_PACK_SIZE of 3 INTEGERs: at least 12')
  pos = 0
  a(1:3) = (/ 7, 8, 9 /)
  dv = -0.5d0
  call MPI_PACK(a, 3, MPI_INTEGER, pbuf, 64, pos, MPI_COMM_WORLD, ierr)
  call MPI_PACK(dv, 1, MPI_DOUBLE_PRECISION, pbuf, 64, pos, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. pos > 12, 'MPI_PACK: the position moves')
  n = pos
  pos = 0
  b = -1
  dw = 0
  call MPI_UNPACK(pbuf, n, pos, b, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_UNPACK(pbuf, n, pos, dw, 1, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  call mt_ok(all(b(1:3) == (/ 7, 8, 9 /)) .and. dw == -0.5d0 .and. pos == n, 'MPI_UNPACK: the values, the position')

  ! ---- a graph: each rank's neighbour is the other
  idx = (/ 1, 2 /)
  edges = (/ 1, 0 /)
  call MPI_GRAPH_CREATE(MPI_COMM_WORLD, 2, idx, edges, .false., gcomm, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gcomm /= MPI_COMM_NULL, 'MPI_GRAPH_CREATE')
  call MPI_GRAPHDIMS_GET(gcomm, nn, ne, ierr)
  call mt_ok(nn == 2 .and. ne == 2, 'MPI_GRAPHDIMS_GET: 2 nodes, 2 edges')
  call MPI_GRAPH_NEIGHBORS_COUNT(gcomm, rank, n, ierr)
  nb = -1
  call MPI_GRAPH_NEIGHBORS(gcomm, rank, 2, nb, ierr)
  call mt_ok(n == 1 .and. nb(1) == peer .and. nb(2) == -1, 'MPI_GRAPH_NEIGHBORS: the other rank')
  call MPI_COMM_FREE(gcomm, ierr)

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_ext
