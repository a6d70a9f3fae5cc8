! f90_ext.f90 - mpif.h, 2 ranks: more of mpi.api (MPI_RSEND,
! MPI_SENDRECV_REPLACE, MPI_ISENDRECV(_REPLACE), MPI_REQUEST_GET_STATUS_ANY/ALL/SOME,
! partitioned communication (MPI_PSEND_INIT ... MPI_PARRIVED),
! MPI 4.1's MPI_COMM_ATTACH_BUFFER(MPI_BUFFER_AUTOMATIC) and its flush and detach,
! matched probes and receives, MPI_REQUEST_GET_STATUS,
! the v-collectives, nonblocking collectives, MPI_REDUCE_LOCAL, group
! operations, derived datatypes, MPI_PACK / MPI_UNPACK, a graph topology;
! then the rest of the nonblocking collectives, neighbourhood collectives,
! MPI_SSEND_INIT / MPI_RSEND_INIT, MPI_GROUP_INTERSECTION,
! MPI_COMM_CREATE_GROUP, MPI_COMM_REMOTE_GROUP, MPI_CART_MAP, MPI_GRAPH_GET /
! MAP, the rest of the datatype calls, MPI_STATUS_SET_ELEMENTS; error
! handlers and error codes returned to Fortran, nonblocking neighbourhood
! collectives, external32 packing, MPI_AINT_ADD / MPI_AINT_DIFF; distributed
! graphs with and without weights, ranges of groups, buffered sends, memory
! from MPI_ALLOC_MEM and MPI_WIN_ALLOCATE(_SHARED) reached by c_f_pointer;
! all-to-all with a datatype per rank, MPI_IRSEND, MPI_RACCUMULATE,
! MPI_RGET_ACCUMULATE, MPI_TYPE_CREATE_DARRAY). Exact values.
program f90_ext
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
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
  integer :: reqs(10), c2(2), i8(8), cart, inter, ints(3), dts(1), ni, na, nd, comb
  integer(kind=MPI_ADDRESS_KIND) :: adds(1), hd(2)
  integer(kind=MPI_COUNT_KIND) :: clb, cext
  common /f90_ext_async/ i8, c2, z
  integer :: eh, win, z
  integer(kind=MPI_ADDRESS_KIND) :: ad1, ad2, epos, esize
  character(len=16) :: ebuf
  integer :: dcomm, srcs(1), dsts(1), sw(1), dw1(1), rng(3, 1), bbuf(100), bsz
  logical :: weighted
  integer(kind=MPI_ADDRESS_KIND) :: bp, ssz
  type(c_ptr) :: cp
  integer, pointer :: pm(:)
  integer :: tys(2), tyr(2), pl(1)
  integer(kind=MPI_ADDRESS_KIND) :: asd(2), ard(2)

  call mt_start(rank, np)
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
  ! ---- MPI 4.0's MPI_ISENDRECV and MPI_ISENDRECV_REPLACE
  a = rank * 10 + (/ 1, 2, 3, 4, 5, 6 /)
  b = -1
  call MPI_ISENDRECV(a, 2, MPI_INTEGER, peer, 36, b, 6, MPI_INTEGER, MPI_ANY_SOURCE, 36, MPI_COMM_WORLD, &
                     req, ierr)
  call MPI_WAIT(req, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(b(1:2) == peer * 10 + (/ 1, 2 /)) .and. all(b(3:6) == -1) &
             .and. st(MPI_SOURCE) == peer .and. st(MPI_TAG) == 36 .and. n == 2 .and. req == MPI_REQUEST_NULL, &
             'MPI_ISENDRECV of 2 into room for 6: status and data')
  call MPI_ISENDRECV_REPLACE(a, 4, MPI_INTEGER, peer, 37, peer, 37, MPI_COMM_WORLD, req, ierr)
  ! MPI 4.1's MPI_REQUEST_GET_STATUS_ANY / _ALL / _SOME: the request stays
  reqs(1) = MPI_REQUEST_NULL
  reqs(2) = req
  flag = .false.
  do while (.not. flag)
    call MPI_REQUEST_GET_STATUS_ANY(2, reqs, x, flag, st, ierr)
  end do
  call mt_ok(x == 2 .and. st(MPI_TAG) == 37 .and. reqs(2) == req, &
             'MPI_REQUEST_GET_STATUS_ANY: index 2 (from 1), the request not freed')
  call MPI_REQUEST_GET_STATUS_SOME(2, reqs, y, idx, MPI_STATUSES_IGNORE, ierr)
  call MPI_REQUEST_GET_STATUS_ALL(2, reqs, flag, MPI_STATUSES_IGNORE, ierr)
  call mt_ok(y == 1 .and. idx(1) == 2 .and. flag, 'MPI_REQUEST_GET_STATUS_SOME (index 2) and _ALL (true)')
  call MPI_WAIT(req, st, ierr)
  call mt_ok(all(a(1:4) == peer * 10 + (/ 1, 2, 3, 4 /)) .and. all(a(5:6) == rank * 10 + (/ 5, 6 /)) &
             .and. st(MPI_SOURCE) == peer, 'MPI_ISENDRECV_REPLACE of 4 of 6')
  call MPI_STATUS_GET_SOURCE(st, x, ierr)
  call MPI_STATUS_GET_TAG(st, y, ierr)
  call mt_ok(x == peer .and. y == 37, 'MPI_STATUS_GET_SOURCE, MPI_STATUS_GET_TAG of that receive')
  call MPI_STATUS_SET_TAG(st, 99, ierr)
  call MPI_STATUS_SET_ERROR(st, MPI_ERR_OTHER, ierr)
  call MPI_STATUS_GET_ERROR(st, y, ierr)
  call mt_ok(st(MPI_TAG) == 99 .and. st(MPI_ERROR) == MPI_ERR_OTHER .and. y == MPI_ERR_OTHER, &
             'MPI_STATUS_SET_TAG, MPI_STATUS_SET_ERROR, MPI_STATUS_GET_ERROR')
  call MPI_TYPE_GET_VALUE_INDEX(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, t, ierr)
  call MPI_TYPE_GET_VALUE_INDEX(MPI_INTEGER, MPI_REAL, x, ierr)
  call mt_ok(t == MPI_2DOUBLE_PRECISION .and. x == MPI_DATATYPE_NULL, 'MPI_TYPE_GET_VALUE_INDEX')

  ! ---- MPI 4.0's partitioned communication: 3 x 2 sent, received as 2 x 3
  a = rank * 10 + (/ 1, 2, 3, 4, 5, 6 /)
  b = -1
  csize = 2
  call MPI_PSEND_INIT(a, 3, csize, MPI_INTEGER, peer, 38, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
  csize = 3
  call MPI_PRECV_INIT(b, 2, csize, MPI_INTEGER, peer, 38, MPI_COMM_WORLD, MPI_INFO_NULL, req2, ierr)
  call MPI_START(req2, ierr)
  call MPI_START(req, ierr)
  call MPI_PREADY(2, req, ierr)
  pl(1) = 0
  call MPI_PREADY_LIST(1, pl, req, ierr)
  call MPI_PREADY_RANGE(1, 1, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_PARRIVED(req2, 1, flag, ierr)
  end do
  call mt_ok(all(b(4:6) == peer * 10 + (/ 4, 5, 6 /)), 'MPI_PARRIVED: partition 1 (of 0 and 1) is there')
  call MPI_WAIT(req2, st, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_ok(all(b == peer * 10 + (/ 1, 2, 3, 4, 5, 6 /)) .and. st(MPI_SOURCE) == peer .and. st(MPI_TAG) == 38, &
             'MPI_PSEND_INIT of 3 x 2 received by MPI_PRECV_INIT as 2 x 3: data and status')
  call MPI_REQUEST_FREE(req, ierr)
  call MPI_REQUEST_FREE(req2, ierr)

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
  idx = -1
  edges = -1
  call MPI_GRAPH_GET(gcomm, 2, 2, idx, edges, ierr)
  call mt_ok(all(idx == (/ 1, 2 /)) .and. all(edges == (/ 1, 0 /)), 'MPI_GRAPH_GET: index, edges')
  call MPI_GRAPH_MAP(MPI_COMM_WORLD, 2, idx, edges, n, ierr)
  call mt_is_int(n, rank, 'MPI_GRAPH_MAP: each rank keeps its place')
  call MPI_COMM_FREE(gcomm, ierr)

  ! ---- the rest of the nonblocking collectives, all in flight at once
  i8 = -1
  c2 = -1
  x = rank + 1
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  call MPI_IREDUCE(x, i8(1), 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_IGATHERV(a, 1, MPI_INTEGER, i8(2), (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, 1, MPI_COMM_WORLD, &
                    reqs(2), ierr)
  call MPI_IALLGATHER(x, 1, MPI_INTEGER, i8(4), 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_IALLGATHERV(a(2), 1, MPI_INTEGER, i8(6), (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, MPI_COMM_WORLD, &
                       reqs(4), ierr)
  call MPI_IEXSCAN(x, c2(1), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(5), ierr)
  call MPI_WAITALL(5, reqs, MPI_STATUSES_IGNORE, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'five nonblocking collectives at once')
  if (rank == 0) call mt_is_int(i8(1), 3, 'MPI_IREDUCE to rank 0')
  if (rank == 1) call mt_ok(i8(2) == 11 .and. i8(3) == 1, 'MPI_IGATHERV at rank 1: swapped by displacements')
  call mt_ok(i8(4) == 1 .and. i8(5) == 2, 'MPI_IALLGATHER')
  call mt_ok(i8(6) == 12 .and. i8(7) == 2, 'MPI_IALLGATHERV: swapped by displacements')
  if (rank == 1) call mt_is_int(c2(1), 1, 'MPI_IEXSCAN at rank 1')
  i8 = -1
  call MPI_ISCATTER(a, 1, MPI_INTEGER, i8(1), 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_ISCATTERV(a, (/ 1, 2 /), (/ 2, 0 /), MPI_INTEGER, i8(2), rank + 1, MPI_INTEGER, 1, MPI_COMM_WORLD, &
                     reqs(2), ierr)
  call MPI_IALLTOALLV(a, (/ 1, 1 /), (/ 0, 1 /), MPI_INTEGER, i8(4), (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, &
                      MPI_COMM_WORLD, reqs(3), ierr)
  b(1:3) = (/ 1, 2, 3 /)
  call MPI_IREDUCE_SCATTER(b, i8(6), (/ 2, 1 /), MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_IREDUCE_SCATTER_BLOCK(b, i8(8), 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, reqs(5), ierr)
  call MPI_WAITALL(5, reqs, MPI_STATUSES_IGNORE, ierr)
  call mt_is_int(i8(1), 1 + rank, 'MPI_ISCATTER from rank 0')
  if (rank == 0) call mt_ok(i8(2) == 13 .and. i8(3) == -1, 'MPI_ISCATTERV from rank 1 to rank 0')
  if (rank == 1) call mt_ok(i8(2) == 11 .and. i8(3) == 12, 'MPI_ISCATTERV from rank 1 to itself')
  call mt_ok(i8(4) == 11 + rank .and. i8(5) == 1 + rank, 'MPI_IALLTOALLV: from rank 1 first (displacements 1, 0)')
  if (rank == 0) call mt_ok(i8(6) == 2 .and. i8(7) == 4, 'MPI_IREDUCE_SCATTER at rank 0: 2, 4')
  if (rank == 1) call mt_is_int(i8(6), 6, 'MPI_IREDUCE_SCATTER at rank 1: 6')
  call mt_is_int(i8(8), 1 + rank, 'MPI_IREDUCE_SCATTER_BLOCK with MPI_MAX')

  ! ---- neighbourhood collectives on a line of 2 (not periodic)
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, (/ 2 /), (/ .false. /), .false., cart, ierr)
  b = -1
  x = rank + 80
  call MPI_NEIGHBOR_ALLGATHER(x, 1, MPI_INTEGER, b, 1, MPI_INTEGER, cart, ierr)
  if (rank == 0) call mt_ok(b(1) == -1 .and. b(2) == 81, 'MPI_NEIGHBOR_ALLGATHER at rank 0: from its right')
  if (rank == 1) call mt_ok(b(1) == 80 .and. b(2) == -1, 'MPI_NEIGHBOR_ALLGATHER at rank 1: from its left')
  b = -1
  call MPI_NEIGHBOR_ALLGATHERV(x, 1, MPI_INTEGER, b, (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, cart, ierr)
  if (rank == 0) call mt_is_int(b(1), 81, 'MPI_NEIGHBOR_ALLGATHERV at rank 0')
  if (rank == 1) call mt_is_int(b(2), 80, 'MPI_NEIGHBOR_ALLGATHERV at rank 1')
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  b = -1
  call MPI_NEIGHBOR_ALLTOALL(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, cart, ierr)
  if (rank == 0) call mt_ok(b(1) == -1 .and. b(2) == 11, 'MPI_NEIGHBOR_ALLTOALL at rank 0')
  if (rank == 1) call mt_ok(b(1) == 2 .and. b(2) == -1, 'MPI_NEIGHBOR_ALLTOALL at rank 1')
  b = -1
  call MPI_NEIGHBOR_ALLTOALLV(a, (/ 1, 1 /), (/ 0, 2 /), MPI_INTEGER, b, (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, &
                              cart, ierr)
  if (rank == 0) call mt_is_int(b(1), 11, 'MPI_NEIGHBOR_ALLTOALLV at rank 0')
  if (rank == 1) call mt_is_int(b(2), 3, 'MPI_NEIGHBOR_ALLTOALLV at rank 1')
  call MPI_COMM_FREE(cart, ierr)
  call MPI_CART_MAP(MPI_COMM_WORLD, 1, (/ 2 /), (/ .true. /), n, ierr)
  call mt_is_int(n, rank, 'MPI_CART_MAP')

  ! ---- MPI_SSEND_INIT, MPI_RSEND_INIT to posted receives
  c2 = -1
  call MPI_RECV_INIT(c2(1), 1, MPI_INTEGER, peer, 50, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_RECV_INIT(c2(2), 1, MPI_INTEGER, peer, 51, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_STARTALL(2, reqs, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  x = rank + 90
  call MPI_SSEND_INIT(x, 1, MPI_INTEGER, peer, 50, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_RSEND_INIT(x, 1, MPI_INTEGER, peer, 51, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_STARTALL(2, reqs(3), ierr)
  call MPI_WAITALL(4, reqs, MPI_STATUSES_IGNORE, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(c2 == peer + 90), 'MPI_SSEND_INIT, MPI_RSEND_INIT')
  do n = 1, 4
    call MPI_REQUEST_FREE(reqs(n), ierr)
  end do

  ! ---- groups and communicators from groups, an intercommunicator's remote group
  call MPI_COMM_GROUP(MPI_COMM_WORLD, g, ierr)
  call MPI_GROUP_EXCL(g, 1, (/ 0 /), g2, ierr)
  call MPI_GROUP_INTERSECTION(g, g2, g3, ierr)
  call MPI_GROUP_TRANSLATE_RANKS(g3, 1, (/ 0 /), g, r2, ierr)
  call mt_is_int(r2(1), 1, 'MPI_GROUP_INTERSECTION: rank 1 alone')
  call MPI_GROUP_FREE(g3, ierr)
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_GROUP_INCL(g, 1, (/ rank /), g2, ierr)
  call MPI_COMM_CREATE_GROUP(MPI_COMM_WORLD, g2, 7, gcomm, ierr)
  call MPI_COMM_SIZE(gcomm, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 1, 'MPI_COMM_CREATE_GROUP of each rank alone')
  call MPI_COMM_FREE(gcomm, ierr)
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_INTERCOMM_CREATE(MPI_COMM_SELF, 0, MPI_COMM_WORLD, peer, 6, inter, ierr)
  call MPI_COMM_REMOTE_GROUP(inter, g2, ierr)
  call MPI_GROUP_TRANSLATE_RANKS(g2, 1, (/ 0 /), g, r2, ierr)
  call mt_is_int(r2(1), peer, 'MPI_COMM_REMOTE_GROUP: the peer')
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_GROUP_FREE(g, ierr)
  call MPI_COMM_FREE(inter, ierr)

  ! ---- the rest of the datatype calls
  hd = (/ 0_MPI_ADDRESS_KIND, 16_MPI_ADDRESS_KIND /)
  call MPI_TYPE_CREATE_HINDEXED(2, (/ 1, 2 /), hd, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call MPI_TYPE_GET_EXTENT_X(t, clb, cext, ierr)
  call mt_ok(n == 12 .and. clb == 0 .and. cext == 24, 'MPI_TYPE_CREATE_HINDEXED, MPI_TYPE_GET_EXTENT_X')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_INDEXED_BLOCK(2, 2, (/ 1, 4 /), MPI_INTEGER, t, ierr)
  call MPI_TYPE_GET_TRUE_EXTENT_X(t, clb, cext, ierr)
  call mt_ok(clb == 4 .and. cext == 20, 'MPI_TYPE_CREATE_INDEXED_BLOCK, MPI_TYPE_GET_TRUE_EXTENT_X')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_CREATE_HINDEXED_BLOCK(2, 1, hd, MPI_DOUBLE_PRECISION, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call mt_is_int(n, 16, 'MPI_TYPE_CREATE_HINDEXED_BLOCK: size 16')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_VECTOR(3, 2, 5, MPI_INTEGER, t, ierr)
  call MPI_TYPE_GET_ENVELOPE(t, ni, na, nd, comb, ierr)
  call mt_ok(ni == 3 .and. na == 0 .and. nd == 1 .and. comb == MPI_COMBINER_VECTOR, 'MPI_TYPE_GET_ENVELOPE of a vector')
  call MPI_TYPE_GET_CONTENTS(t, 3, 1, 1, ints, adds, dts, ierr)
  call mt_ok(all(ints == (/ 3, 2, 5 /)) .and. dts(1) == MPI_INTEGER, 'MPI_TYPE_GET_CONTENTS: 3, 2, 5 of MPI_INTEGER')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, 8, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 8, 'MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, 8): a type of 8 bytes')
  call MPI_TYPE_CREATE_F90_INTEGER(9, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 4, 'MPI_TYPE_CREATE_F90_INTEGER(9): 4 bytes')
  call MPI_TYPE_CREATE_F90_REAL(15, 307, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 8, 'MPI_TYPE_CREATE_F90_REAL(15, 307): 8 bytes')
  call MPI_TYPE_CREATE_F90_COMPLEX(6, 37, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 8, 'MPI_TYPE_CREATE_F90_COMPLEX(6, 37): 8 bytes')
  call MPI_STATUS_SET_ELEMENTS(st, MPI_INTEGER, 3, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_is_int(n, 3, 'MPI_STATUS_SET_ELEMENTS of 3 INTEGERs, MPI_GET_COUNT')
  csize = 5
  call MPI_STATUS_SET_ELEMENTS_X(st, MPI_DOUBLE_PRECISION, csize, ierr)
  csize = -1
  call MPI_GET_ELEMENTS_X(st, MPI_DOUBLE_PRECISION, csize, ierr)
  call mt_ok(csize == 5, 'MPI_STATUS_SET_ELEMENTS_X, MPI_GET_ELEMENTS_X: 5')

  ! ---- error handlers: codes come back in ierror with MPI_ERRORS_RETURN
  call MPI_COMM_GET_ERRHANDLER(MPI_COMM_WORLD, eh, ierr)
  call mt_is_int(eh, MPI_ERRORS_ARE_FATAL, 'MPI_COMM_GET_ERRHANDLER: MPI_ERRORS_ARE_FATAL at first')
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call mt_is_int(eh, MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_FREE: MPI_ERRHANDLER_NULL')
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, 5, 0, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_ERR_RANK, 'MPI_ERRORS_RETURN: MPI_SEND to rank 5 of 2 gives MPI_ERR_RANK')
  call MPI_BARRIER(MPI_INTEGER, ierr)
  call mt_is_int(ierr, MPI_ERR_COMM, 'a datatype handle given as a communicator: MPI_ERR_COMM')
  call MPI_SEND(x, 1, MPI_COMM_WORLD, peer, 0, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_ERR_TYPE, 'a communicator handle given as a datatype: MPI_ERR_TYPE')
  call MPI_COMM_CALL_ERRHANDLER(MPI_COMM_WORLD, MPI_ERR_OTHER, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_CALL_ERRHANDLER with MPI_ERRORS_RETURN: MPI_SUCCESS')
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  esize = 0
  call MPI_WIN_CREATE(MPI_BOTTOM, esize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_SET_ERRHANDLER(win, MPI_ERRORS_RETURN, ierr)
  call MPI_WIN_GET_ERRHANDLER(win, eh, ierr)
  call mt_is_int(eh, MPI_ERRORS_RETURN, 'MPI_WIN_SET_ERRHANDLER, MPI_WIN_GET_ERRHANDLER')
  call MPI_WIN_CALL_ERRHANDLER(win, MPI_ERR_OTHER, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WIN_CALL_ERRHANDLER with MPI_ERRORS_RETURN')
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call MPI_WIN_FREE(win, ierr)

  ! ---- nonblocking neighbourhood collectives on a line of 2
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, (/ 2 /), (/ .false. /), .false., cart, ierr)
  i8 = -1
  x = rank + 80
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  call MPI_INEIGHBOR_ALLGATHER(x, 1, MPI_INTEGER, i8(1), 1, MPI_INTEGER, cart, reqs(1), ierr)
  call MPI_INEIGHBOR_ALLGATHERV(x, 1, MPI_INTEGER, i8(3), (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, cart, reqs(2), ierr)
  call MPI_INEIGHBOR_ALLTOALL(a, 1, MPI_INTEGER, i8(5), 1, MPI_INTEGER, cart, reqs(3), ierr)
  call MPI_WAITALL(3, reqs, MPI_STATUSES_IGNORE, ierr)
  c2 = -1
  call MPI_INEIGHBOR_ALLTOALLV(a, (/ 1, 1 /), (/ 0, 2 /), MPI_INTEGER, c2, (/ 1, 1 /), (/ 1, 0 /), MPI_INTEGER, &
                               cart, reqs(1), ierr)
  call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)
  if (rank == 0) call mt_ok(all(i8(1:6) == (/ -1, 81, 81, -1, -1, 11 /)) .and. c2(1) == 11, &
                            'MPI_INEIGHBOR_ALLGATHER(V), _ALLTOALL(V) at rank 0')
  if (rank == 1) call mt_ok(all(i8(1:6) == (/ 80, -1, -1, 80, 2, -1 /)) .and. c2(2) == 3, &
                            'MPI_INEIGHBOR_ALLGATHER(V), _ALLTOALL(V) at rank 1')
  call MPI_COMM_FREE(cart, ierr)

  ! ---- external32: big-endian INTEGERs
  call MPI_PACK_EXTERNAL_SIZE('external32', 2, MPI_INTEGER, esize, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. esize == 8, 'MPI_PACK_EXTERNAL_SIZE of 2 INTEGERs: 8')
  epos = 0
  c2 = (/ 258, -2 /)
  call MPI_PACK_EXTERNAL('external32  ', c2, 2, MPI_INTEGER, ebuf, 16_MPI_ADDRESS_KIND, epos, ierr)
  call mt_ok(epos == 8 .and. ichar(ebuf(3:3)) == 1 .and. ichar(ebuf(4:4)) == 2 .and. ichar(ebuf(5:5)) == 255, &
             'MPI_PACK_EXTERNAL: 8 bytes, big-endian')
  c2 = 0
  epos = 0
  call MPI_UNPACK_EXTERNAL('external32', ebuf, 8_MPI_ADDRESS_KIND, epos, c2, 2, MPI_INTEGER, ierr)
  call mt_ok(epos == 8 .and. c2(1) == 258 .and. c2(2) == -2, 'MPI_UNPACK_EXTERNAL: the values')

  ! ---- MPI_AINT_ADD, MPI_AINT_DIFF (functions of INTEGER(KIND=MPI_ADDRESS_KIND))
  call MPI_GET_ADDRESS(a(1), ad1, ierr)
  call MPI_GET_ADDRESS(a(3), ad2, ierr)
  call mt_ok(MPI_AINT_DIFF(ad2, ad1) == 8 .and. MPI_AINT_ADD(ad1, 8_MPI_ADDRESS_KIND) == ad2, &
             'MPI_AINT_DIFF, MPI_AINT_ADD over a(1), a(3)')

  ! ---- distributed graphs: each rank's one neighbour the other
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 1, (/ peer /), MPI_UNWEIGHTED, 1, (/ peer /), &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., dcomm, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. dcomm /= MPI_COMM_NULL, 'MPI_DIST_GRAPH_CREATE_ADJACENT with MPI_UNWEIGHTED')
  weighted = .true.
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(dcomm, n, x, weighted, ierr)
  call mt_ok(n == 1 .and. x == 1 .and. .not. weighted, 'MPI_DIST_GRAPH_NEIGHBORS_COUNT: 1, 1, not weighted')
  srcs = -1
  dsts = -1
  call MPI_DIST_GRAPH_NEIGHBORS(dcomm, 1, srcs, MPI_UNWEIGHTED, 1, dsts, MPI_UNWEIGHTED, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. srcs(1) == peer .and. dsts(1) == peer, 'MPI_DIST_GRAPH_NEIGHBORS: the peer')
  call MPI_COMM_FREE(dcomm, ierr)
  call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 1, (/ rank /), (/ 1 /), (/ peer /), (/ 5 + 2 * rank /), &
                             MPI_INFO_NULL, .false., dcomm, ierr)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(dcomm, n, x, weighted, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 1 .and. x == 1 .and. weighted, 'MPI_DIST_GRAPH_CREATE with weights')
  sw = -1
  dw1 = -1
  call MPI_DIST_GRAPH_NEIGHBORS(dcomm, 1, srcs, sw, 1, dsts, dw1, ierr)
  call mt_ok(sw(1) == 5 + 2 * peer .and. dw1(1) == 5 + 2 * rank, 'MPI_DIST_GRAPH_NEIGHBORS: the weights')
  call MPI_COMM_FREE(dcomm, ierr)

  ! ---- ranges of groups: INTEGER ranges(3, n)
  call MPI_COMM_GROUP(MPI_COMM_WORLD, g, ierr)
  rng(:, 1) = (/ 1, 1, 1 /)
  call MPI_GROUP_RANGE_INCL(g, 1, rng, g2, ierr)
  call MPI_GROUP_TRANSLATE_RANKS(g2, 1, (/ 0 /), g, r2, ierr)
  call mt_is_int(r2(1), 1, 'MPI_GROUP_RANGE_INCL of 1..1: rank 1')
  call MPI_GROUP_FREE(g2, ierr)
  rng(:, 1) = (/ 0, 1, 2 /)
  call MPI_GROUP_RANGE_EXCL(g, 1, rng, g2, ierr)
  call MPI_GROUP_SIZE(g2, n, ierr)
  call mt_is_int(n, 1, 'MPI_GROUP_RANGE_EXCL of 0..1 by 2: 1 rank left')
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_GROUP_FREE(g, ierr)

  ! ---- buffered sends through an attached buffer
  call MPI_BUFFER_ATTACH(bbuf, 400, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_BUFFER_ATTACH')
  x = rank + 10
  call MPI_BSEND(x, 1, MPI_INTEGER, peer, 60, MPI_COMM_WORLD, ierr)
  call MPI_IBSEND(x, 1, MPI_INTEGER, peer, 61, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_BSEND_INIT(x, 1, MPI_INTEGER, peer, 62, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_START(reqs(2), ierr)
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_REQUEST_FREE(reqs(2), ierr)
  i8 = -1
  call MPI_RECV(i8(1), 1, MPI_INTEGER, peer, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_RECV(i8(2), 1, MPI_INTEGER, peer, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_RECV(i8(3), 1, MPI_INTEGER, peer, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mt_ok(all(i8(1:3) == peer + 10), 'MPI_BSEND, MPI_IBSEND, MPI_BSEND_INIT: the values')
  call MPI_BUFFER_DETACH(bp, bsz, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. bsz == 400, 'MPI_BUFFER_DETACH: the size attached')
  ! MPI 4.0: a persistent collective, started three times
  do n = 1, 3
    if (n == 1) call MPI_ALLREDUCE_INIT(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, req2, ierr)
    x = rank + 10 * n
    call MPI_START(req2, ierr)
    call MPI_WAIT(req2, st, ierr)
    call mt_ok(y == 1 + 20 * n .and. req2 /= MPI_REQUEST_NULL, 'MPI_ALLREDUCE_INIT, MPI_START, MPI_WAIT')
  end do
  call MPI_REQUEST_FREE(req2, ierr)
  call mt_ok(req2 == MPI_REQUEST_NULL, 'MPI_REQUEST_FREE of the persistent collective')
  ! MPI 4.1: a communicator's own buffer, automatic
  call MPI_COMM_ATTACH_BUFFER(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_ATTACH_BUFFER(MPI_BUFFER_AUTOMATIC)')
  x = rank + 70
  call MPI_BSEND(x, 1, MPI_INTEGER, peer, 70, MPI_COMM_WORLD, ierr)
  call MPI_RECV(y, 1, MPI_INTEGER, peer, 70, MPI_COMM_WORLD, st, ierr)
  call MPI_COMM_FLUSH_BUFFER(MPI_COMM_WORLD, ierr)
  call MPI_COMM_DETACH_BUFFER(MPI_COMM_WORLD, bp, bsz, ierr)
  call mt_ok(y == peer + 70 .and. ierr == MPI_SUCCESS .and. bsz == 0, &
             'MPI_BSEND through it, MPI_COMM_FLUSH_BUFFER, MPI_COMM_DETACH_BUFFER (size 0)')

  ! ---- memory of the library, reached through c_f_pointer
  call MPI_ALLOC_MEM(64_MPI_ADDRESS_KIND, MPI_INFO_NULL, bp, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. bp /= 0, 'MPI_ALLOC_MEM: an address')
  cp = transfer(bp, cp)
  call c_f_pointer(cp, pm, (/ 16 /))
  pm = 7
  call mt_is_int(sum(pm), 112, 'MPI_ALLOC_MEM: 16 INTEGERs written and read')
  call MPI_FREE_MEM(pm, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FREE_MEM')
  call MPI_WIN_ALLOCATE(8_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, bp, win, ierr)
  cp = transfer(bp, cp)
  call c_f_pointer(cp, pm, (/ 2 /))
  pm = -1
  call MPI_WIN_FENCE(0, win, ierr)
  x = rank + 30
  call MPI_PUT(x, 1, MPI_INTEGER, peer, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call mt_ok(pm(1) == -1 .and. pm(2) == peer + 30, 'MPI_WIN_ALLOCATE: the peer''s MPI_PUT in the memory')
  call MPI_WIN_FREE(win, ierr)
  call MPI_WIN_ALLOCATE_SHARED(4_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, bp, win, ierr)
  cp = transfer(bp, cp)
  call c_f_pointer(cp, pm, (/ 1 /))
  call MPI_WIN_FENCE(0, win, ierr)
  pm(1) = rank + 40
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_SHARED_QUERY(win, peer, ssz, n, bp, ierr)
  cp = transfer(bp, cp)
  call c_f_pointer(cp, pm, (/ 1 /))
  call mt_ok(ssz == 4 .and. n == 4 .and. pm(1) == peer + 40, 'MPI_WIN_ALLOCATE_SHARED, MPI_WIN_SHARED_QUERY: the peer''s')
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_FREE(win, ierr)

  ! ---- MPI_ALLTOALLW, MPI_IALLTOALLW (its type arrays changed once called):
  ! byte displacements
  a = (/ 1, 2, 3, 4, 5, 6 /) + 10 * rank
  tys = MPI_INTEGER
  tyr = MPI_INTEGER
  b = -1
  call MPI_ALLTOALLW(a, (/ 1, 1 /), (/ 0, 4 /), tys, b, (/ 1, 1 /), (/ 4, 0 /), tyr, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. b(1) == 11 + rank .and. b(2) == 1 + rank, 'MPI_ALLTOALLW')
  i8 = -1
  call MPI_IALLTOALLW(a, (/ 1, 1 /), (/ 0, 4 /), tys, i8, (/ 1, 1 /), (/ 4, 0 /), tyr, MPI_COMM_WORLD, &
                      reqs(1), ierr)
  tys = MPI_DATATYPE_NULL
  tyr = MPI_DATATYPE_NULL
  call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. i8(1) == 11 + rank .and. i8(2) == 1 + rank, &
             'MPI_IALLTOALLW: its type arrays may change once it is called')
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, (/ 2 /), (/ .false. /), .false., cart, ierr)
  tys = MPI_INTEGER
  tyr = MPI_INTEGER
  asd = (/ 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND /)
  ard = (/ 4_MPI_ADDRESS_KIND, 0_MPI_ADDRESS_KIND /)
  b = -1
  call MPI_NEIGHBOR_ALLTOALLW(a, (/ 1, 1 /), asd, tys, b, (/ 1, 1 /), ard, tyr, cart, ierr)
  i8 = -1
  call MPI_INEIGHBOR_ALLTOALLW(a, (/ 1, 1 /), asd, tys, i8, (/ 1, 1 /), ard, tyr, cart, reqs(1), ierr)
  call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)
  if (rank == 0) call mt_ok(b(1) == 11 .and. b(2) == -1 .and. i8(1) == 11 .and. i8(2) == -1, &
                            'MPI_NEIGHBOR_ALLTOALLW, MPI_INEIGHBOR_ALLTOALLW at rank 0')
  if (rank == 1) call mt_ok(b(1) == -1 .and. b(2) == 2 .and. i8(1) == -1 .and. i8(2) == 2, &
                            'MPI_NEIGHBOR_ALLTOALLW, MPI_INEIGHBOR_ALLTOALLW at rank 1')
  call MPI_COMM_FREE(cart, ierr)

  ! ---- MPI_IRSEND to a posted receive
  y = -1
  call MPI_IRECV(y, 1, MPI_INTEGER, peer, 70, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  x = rank + 700
  call MPI_IRSEND(x, 1, MPI_INTEGER, peer, 70, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call mt_is_int(y, peer + 700, 'MPI_IRSEND')

  ! ---- MPI_RACCUMULATE, MPI_RGET_ACCUMULATE
  c2 = (/ 1, 2 /) * (rank + 1)
  call MPI_WIN_CREATE(c2, 8_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_LOCK_ALL(0, win, ierr)
  x = 100
  call MPI_RACCUMULATE(x, 1, MPI_INTEGER, peer, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win, reqs(1), ierr)
  call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_WIN_FLUSH(peer, win, ierr)
  z = -1
  call MPI_RGET_ACCUMULATE(x, 1, MPI_INTEGER, z, 1, MPI_INTEGER, peer, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, &
                           MPI_MAX, win, reqs(1), ierr)
  call MPI_WAIT(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_WIN_UNLOCK_ALL(win, ierr)
  call mt_is_int(z, 2 * (peer + 1), 'MPI_RGET_ACCUMULATE: the old value')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, rank, 0, win, ierr)
  call MPI_WIN_SYNC(win, ierr)
  call mt_ok(c2(1) == rank + 101 .and. c2(2) == 100, 'MPI_RACCUMULATE with MPI_SUM, MPI_RGET_ACCUMULATE with MPI_MAX')
  call MPI_WIN_UNLOCK(rank, win, ierr)
  call MPI_WIN_FREE(win, ierr)

  ! ---- MPI_TYPE_CREATE_DARRAY: 4 INTEGERs in blocks over 2 ranks
  call MPI_TYPE_CREATE_DARRAY(2, rank, 1, (/ 4 /), (/ MPI_DISTRIBUTE_BLOCK /), (/ MPI_DISTRIBUTE_DFLT_DARG /), &
                              (/ 2 /), MPI_ORDER_FORTRAN, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SIZE(t, n, ierr)
  call MPI_TYPE_GET_TRUE_EXTENT(t, lb, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 8 .and. lb == 8 * rank .and. ext == 8, &
             'MPI_TYPE_CREATE_DARRAY: 2 INTEGERs at 8 * rank')
  call MPI_TYPE_FREE(t, ierr)

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_ext
