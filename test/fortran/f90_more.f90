! f90_more.f90 - mpif.h, 2 ranks: the functions of mpi.api beyond the core
! (MPI_INIT_THREAD, versions, error classes, names, groups, MPI_COMM_CREATE,
! synchronous and probing point-to-point, MPI_TEST / MPI_TESTALL,
! persistent requests, MPI_REQUEST_FREE, MPI_WAITANY / MPI_TESTANY /
! MPI_WAITSOME / MPI_TESTSOME (indices from 1), MPI_CANCEL, MPI_F_SYNC_REG,
! MPI_SCATTER with MPI_IN_PLACE,
! MPI_GATHERV, MPI_ALLTOALL, MPI_REDUCE_SCATTER_BLOCK, MPI_SCAN,
! MPI_EXSCAN, datatype sizes and extents, MPI_DIMS_CREATE, Cartesian
! communicators (LOGICAL arrays), intercommunicators, MPI_COMM_SPLIT_TYPE,
! MPI_COMM_DUP_WITH_INFO, info objects and names: strings in and out).
! Exact values.
program f90_more
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, peer, i, n, nbad, prov, v1, v2, res, grp, g1, newcomm, t, t2
  integer :: req(2), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), one(1)
  integer :: a(4), b(4), cnt(2), dsp(2), dims(2), x, y, idx, outc, ids(2), got(2), r2(2)
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
  logical :: flag, per(3), rem(2)
  integer :: cart, sub, inter, merged, d3(3), c3(3), src, dst, info, info2
  character(len=8) :: val
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lver
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  character(len=5) :: cshort

  call MPI_INIT_THREAD(MPI_THREAD_FUNNELED, prov, ierr)
  call mt_start(rank, np)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_INIT_THREAD')
  call mt_ok(prov >= MPI_THREAD_FUNNELED .and. prov <= MPI_THREAD_MULTIPLE, 'MPI_INIT_THREAD: provided')
  call MPI_QUERY_THREAD(n, ierr)
  call mt_is_int(n, prov, 'MPI_QUERY_THREAD is what MPI_INIT_THREAD provided')
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
  peer = 1 - rank
  call MPI_GET_VERSION(v1, v2, ierr)
  call mt_ok(v1 == MPI_VERSION .and. v2 == MPI_SUBVERSION, 'MPI_GET_VERSION')
  call MPI_ERROR_CLASS(MPI_ERR_TRUNCATE, n, ierr)
  call mt_is_int(n, MPI_ERR_TRUNCATE, 'MPI_ERROR_CLASS')

  ! ---- communicators: compare, names (a string in), groups, MPI_COMM_CREATE
  call MPI_COMM_COMPARE(MPI_COMM_WORLD, MPI_COMM_WORLD, res, ierr)
  call mt_is_int(res, MPI_IDENT, 'MPI_COMM_COMPARE of MPI_COMM_WORLD with itself')
  call MPI_COMM_COMPARE(MPI_COMM_WORLD, MPI_COMM_SELF, res, ierr)
  call mt_is_int(res, MPI_UNEQUAL, 'MPI_COMM_COMPARE of MPI_COMM_WORLD and MPI_COMM_SELF')
  flag = .true.
  call MPI_COMM_TEST_INTER(MPI_COMM_WORLD, flag, ierr)
  call mt_ok(.not. flag, 'MPI_COMM_TEST_INTER: MPI_COMM_WORLD is not an intercommunicator')
  call MPI_COMM_SET_NAME(MPI_COMM_SELF, 'my self   ', ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_SET_NAME')
  cname = 'x'
  call MPI_COMM_GET_NAME(MPI_COMM_SELF, cname, n, ierr)
  call mt_ok(cname == 'my self' .and. n == 7, 'MPI_COMM_GET_NAME: trailing blanks of the name dropped')
  call MPI_COMM_GET_NAME(MPI_COMM_WORLD, cshort, n, ierr)
  call mt_ok(cshort == 'MPI_C' .and. n == 14, 'MPI_COMM_GET_NAME into CHARACTER*5: cut')
  call MPI_COMM_GROUP(MPI_COMM_WORLD, grp, ierr)
  call MPI_GROUP_SIZE(grp, n, ierr)
  call mt_is_int(n, 2, 'MPI_GROUP_SIZE')
  call MPI_GROUP_RANK(grp, n, ierr)
  call mt_is_int(n, rank, 'MPI_GROUP_RANK')
  one(1) = 1
  call MPI_GROUP_INCL(grp, 1, one, g1, ierr)
  call MPI_GROUP_RANK(g1, n, ierr)
  if (rank == 1) call mt_is_int(n, 0, 'MPI_GROUP_INCL of rank 1: rank 1 is its 0')
  if (rank == 0) call mt_is_int(n, MPI_UNDEFINED, 'MPI_GROUP_INCL of rank 1: rank 0 is not in it')
  call MPI_COMM_CREATE(MPI_COMM_WORLD, g1, newcomm, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_CREATE')
  if (rank == 0) call mt_is_int(newcomm, MPI_COMM_NULL, 'MPI_COMM_CREATE: MPI_COMM_NULL outside the group')
  if (rank == 1) then
    call MPI_COMM_SIZE(newcomm, n, ierr)
    call mt_is_int(n, 1, 'MPI_COMM_CREATE: a communicator of 1')
    call MPI_COMM_FREE(newcomm, ierr)
  end if
  call MPI_GROUP_FREE(g1, ierr)
  call MPI_GROUP_FREE(grp, ierr)
  call mt_ok(g1 == MPI_GROUP_NULL .and. grp == MPI_GROUP_NULL, 'MPI_GROUP_FREE: the handles are MPI_GROUP_NULL')

  ! ---- MPI_ISSEND / MPI_PROBE / MPI_IPROBE / MPI_TEST / MPI_SSEND
  if (rank == 0) then
    a = (/ 1, 2, 3, 4 /)
    call MPI_ISSEND(a, 4, MPI_INTEGER, 1, 11, MPI_COMM_WORLD, req(1), ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_TEST(req(1), flag, st, ierr)
    end do
    call mt_is_int(req(1), MPI_REQUEST_NULL, 'MPI_TEST of a completed MPI_ISSEND: MPI_REQUEST_NULL')
    call MPI_SSEND(a, 2, MPI_INTEGER, 1, 12, MPI_COMM_WORLD, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_SSEND')
  else
    call MPI_PROBE(0, 11, MPI_COMM_WORLD, st, ierr)
    call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
    call mt_ok(st(MPI_SOURCE) == 0 .and. st(MPI_TAG) == 11 .and. n == 4, 'MPI_PROBE: source, tag, count')
    call MPI_RECV(b, 4, MPI_INTEGER, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call mt_ok(all(b == (/ 1, 2, 3, 4 /)), 'MPI_RECV after MPI_PROBE: the values')
    flag = .false.
    do while (.not. flag)
      call MPI_IPROBE(0, 12, MPI_COMM_WORLD, flag, st, ierr)
    end do
    call MPI_GET_ELEMENTS(st, MPI_INTEGER, n, ierr)
    call mt_ok(st(MPI_TAG) == 12 .and. n == 2, 'MPI_IPROBE: flag .TRUE., tag, MPI_GET_ELEMENTS')
    call MPI_RECV(b, 4, MPI_INTEGER, 0, 12, MPI_COMM_WORLD, st, ierr)
  end if

  ! ---- persistent requests, MPI_STARTALL twice, MPI_TESTALL, MPI_REQUEST_FREE
  x = 0
  call MPI_RECV_INIT(y, 1, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, req(1), ierr)
  call MPI_SEND_INIT(x, 1, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, req(2), ierr)
  do i = 1, 2
    x = rank * 100 + i
    y = -1
    call MPI_STARTALL(2, req, ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_TESTALL(2, req, flag, sts, ierr)
    end do
    call mt_is_int(y, peer * 100 + i, 'MPI_STARTALL, MPI_TESTALL of persistent requests: the value')
    call mt_ok(req(1) /= MPI_REQUEST_NULL .and. req(2) /= MPI_REQUEST_NULL, &
               'MPI_TESTALL: persistent requests stay')
    call mt_is_int(sts(MPI_TAG, 1), 13, 'MPI_TESTALL: statuses(MPI_TAG, 1)')
  end do
  x = 7
  call MPI_START(req(2), ierr)
  call MPI_START(req(1), ierr)
  call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
  call mt_is_int(y, 7, 'MPI_START each, MPI_WAITALL')
  call MPI_REQUEST_FREE(req(1), ierr)
  call MPI_REQUEST_FREE(req(2), ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(req == MPI_REQUEST_NULL), 'MPI_REQUEST_FREE: MPI_REQUEST_NULL')

  ! ---- MPI_WAITANY, MPI_TESTANY, MPI_WAITSOME, MPI_TESTSOME: indices from 1
  r2 = -1
  call MPI_IRECV(r2(1), 1, MPI_INTEGER, peer, 20, MPI_COMM_WORLD, req(1), ierr)
  call MPI_IRECV(r2(2), 1, MPI_INTEGER, peer, 21, MPI_COMM_WORLD, req(2), ierr)
  x = rank + 70
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 21, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, req, idx, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. (idx == 1 .or. idx == 2), 'MPI_WAITANY: an index from 1')
  call mt_ok(req(idx) == MPI_REQUEST_NULL .and. st(MPI_TAG) == 19 + idx, &
             'MPI_WAITANY: requests(index) is MPI_REQUEST_NULL, its status')
  got = 0
  got(idx) = 1
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 20, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_TESTANY(2, req, idx, flag, MPI_STATUS_IGNORE, ierr)
  end do
  call mt_ok(idx >= 1 .and. idx <= 2, 'MPI_TESTANY: an index from 1')
  if (idx >= 1 .and. idx <= 2) got(idx) = got(idx) + 1
  call mt_ok(all(got == 1) .and. all(r2 == peer + 70), 'MPI_WAITANY then MPI_TESTANY: each request once, the values')
  call MPI_WAITANY(2, req, idx, st, ierr)
  call mt_is_int(idx, MPI_UNDEFINED, 'MPI_WAITANY with no active request: MPI_UNDEFINED')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  r2 = -1
  call MPI_IRECV(r2(1), 1, MPI_INTEGER, peer, 22, MPI_COMM_WORLD, req(1), ierr)
  call MPI_IRECV(r2(2), 1, MPI_INTEGER, peer, 23, MPI_COMM_WORLD, req(2), ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 23, MPI_COMM_WORLD, ierr)
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 22, MPI_COMM_WORLD, ierr)
  got = 0
  nbad = 0
  n = 0
  do while (n < 2)
    if (mod(n, 2) == 0) then
      call MPI_WAITSOME(2, req, outc, ids, sts, ierr)
    else
      call MPI_TESTSOME(2, req, outc, ids, sts, ierr)
    end if
    do i = 1, outc
      if (ids(i) < 1 .or. ids(i) > 2) then
        nbad = nbad + 1
      else
        got(ids(i)) = got(ids(i)) + 1
        if (sts(MPI_TAG, i) /= 21 + ids(i)) nbad = nbad + 1
      end if
    end do
    n = n + max(outc, 0)
  end do
  call mt_ok(nbad == 0 .and. all(got == 1) .and. all(r2 == peer + 70), &
             'MPI_WAITSOME / MPI_TESTSOME: indices from 1, each once, statuses in their order')
  call MPI_WAITSOME(2, req, outc, ids, sts, ierr)
  call mt_is_int(outc, MPI_UNDEFINED, 'MPI_WAITSOME with no active request: outcount MPI_UNDEFINED')

  ! ---- MPI_CANCEL of a receive nothing matches, MPI_TEST_CANCELLED
  call MPI_IRECV(y, 1, MPI_INTEGER, peer, 99, MPI_COMM_WORLD, req(1), ierr)
  call MPI_CANCEL(req(1), ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. req(1) /= MPI_REQUEST_NULL, 'MPI_CANCEL: the request stays until completed')
  call MPI_WAIT(req(1), st, ierr)
  flag = .false.
  call MPI_TEST_CANCELLED(st, flag, ierr)
  call mt_ok(flag .and. req(1) == MPI_REQUEST_NULL, 'MPI_TEST_CANCELLED: .TRUE. after MPI_WAIT')

  ! ---- MPI_F_SYNC_REG (implicit interface) on an MPI_IRECV's buffer
  ! before MPI_WAIT and after
  y = -1
  x = rank + 70
  call MPI_IRECV(y, 1, MPI_INTEGER, peer, 98, MPI_COMM_WORLD, req(1), ierr)
  call MPI_F_SYNC_REG(y)
  call MPI_SEND(x, 1, MPI_INTEGER, peer, 98, MPI_COMM_WORLD, ierr)
  call MPI_WAIT(req(1), MPI_STATUS_IGNORE, ierr)
  call MPI_F_SYNC_REG(y)
  call PMPI_F_SYNC_REG(y)
  call mt_ok(y == peer + 70 .and. req(1) == MPI_REQUEST_NULL, 'MPI_F_SYNC_REG around MPI_WAIT: the INTEGER received')

  ! ---- collectives
  a = (/ 10, 20, 30, 40 /)
  b = -1
  if (rank == 0) then
    call MPI_SCATTER(a, 2, MPI_INTEGER, MPI_IN_PLACE, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call mt_ok(all(a == (/ 10, 20, 30, 40 /)), 'MPI_SCATTER with MPI_IN_PLACE at the root: its buffer kept')
  else
    call MPI_SCATTER(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call mt_ok(b(1) == 30 .and. b(2) == 40, 'MPI_SCATTER: 30, 40 at rank 1')
  end if
  cnt = (/ 1, 3 /)
  dsp = (/ 3, 0 /)
  b = -1
  a = rank * 10 + (/ 1, 2, 3, 4 /)
  call MPI_GATHERV(a, rank * 2 + 1, MPI_INTEGER, b, cnt, dsp, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call mt_ok(all(b == (/ 11, 12, 13, 1 /)), 'MPI_GATHERV: counts 1, 3 at displacements 3, 0')
  a = rank * 10 + (/ 1, 2, 3, 4 /)
  call MPI_ALLTOALL(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call mt_ok(all(b == (/ 1, 2, 11, 12 /) + 2 * rank), 'MPI_ALLTOALL')
  a = (/ 1, 2, 3, 4 /) * (rank + 1)
  call MPI_REDUCE_SCATTER_BLOCK(a, b, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_ok(b(1) == 3 * (2 * rank + 1) .and. b(2) == 3 * (2 * rank + 2), 'MPI_REDUCE_SCATTER_BLOCK with MPI_SUM')
  x = rank + 5
  call MPI_SCAN(x, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_is_int(y, 5 + 6 * rank, 'MPI_SCAN with MPI_SUM')
  y = rank + 5
  call MPI_SCAN(MPI_IN_PLACE, y, 1, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, ierr)
  call mt_is_int(y, 5 + 25 * rank, 'MPI_SCAN with MPI_IN_PLACE and MPI_PROD')
  y = -9
  call MPI_EXSCAN(x, y, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 1) call mt_is_int(y, 5, 'MPI_EXSCAN with MPI_MAX at rank 1')

  ! ---- datatypes
  call MPI_TYPE_SIZE(MPI_DOUBLE_PRECISION, n, ierr)
  call mt_is_int(n, 8, 'MPI_TYPE_SIZE of MPI_DOUBLE_PRECISION')
  call MPI_TYPE_VECTOR(3, 2, 4, MPI_INTEGER, t, ierr)
  call MPI_TYPE_DUP(t, t2, ierr)
  call MPI_TYPE_SIZE(t2, n, ierr)
  call mt_is_int(n, 24, 'MPI_TYPE_VECTOR(3, 2, 4) of INTEGER, duplicated: size 24')
  call MPI_TYPE_GET_EXTENT(t2, lb, ext, ierr)
  call mt_ok(lb == 0 .and. ext == 40, 'MPI_TYPE_GET_EXTENT: lb 0, extent 40 (INTEGER(KIND=MPI_ADDRESS_KIND))')
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call mt_ok(t == MPI_DATATYPE_NULL .and. t2 == MPI_DATATYPE_NULL, 'MPI_TYPE_FREE of both')
  dims = 0
  call MPI_DIMS_CREATE(12, 2, dims, ierr)
  call mt_ok(dims(1) == 4 .and. dims(2) == 3, 'MPI_DIMS_CREATE(12, 2): 4 x 3')

  ! ---- a Cartesian communicator 2 x 1, periodic in its first dimension
  dims = (/ 2, 1 /)
  per(1:2) = (/ .true., .false. /)
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, per, .false., cart, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. cart /= MPI_COMM_NULL, 'MPI_CART_CREATE')
  call MPI_TOPO_TEST(cart, n, ierr)
  call mt_is_int(n, MPI_CART, 'MPI_TOPO_TEST: MPI_CART')
  call MPI_CARTDIM_GET(cart, n, ierr)
  call mt_is_int(n, 2, 'MPI_CARTDIM_GET')
  d3 = -1
  c3 = -1
  per = .true.
  call MPI_CART_GET(cart, 3, d3, per, c3, ierr)
  call mt_ok(d3(1) == 2 .and. d3(2) == 1 .and. c3(1) == rank .and. c3(2) == 0, 'MPI_CART_GET: dims, coords')
  call mt_ok(per(1) .and. .not. per(2) .and. per(3), 'MPI_CART_GET: periods (LOGICAL), the third left alone')
  call MPI_CART_RANK(cart, (/ peer, 0 /), n, ierr)
  call mt_is_int(n, peer, 'MPI_CART_RANK')
  call MPI_CART_COORDS(cart, 1, 2, c3, ierr)
  call mt_ok(c3(1) == 1 .and. c3(2) == 0, 'MPI_CART_COORDS of rank 1')
  call MPI_CART_SHIFT(cart, 0, 1, src, dst, ierr)
  call mt_ok(src == peer .and. dst == peer, 'MPI_CART_SHIFT in the periodic dimension')
  call MPI_CART_SHIFT(cart, 1, 1, src, dst, ierr)
  call mt_ok(src == MPI_PROC_NULL .and. dst == MPI_PROC_NULL, 'MPI_CART_SHIFT in the other: MPI_PROC_NULL')
  rem = (/ .true., .false. /)
  call MPI_CART_SUB(cart, rem, sub, ierr)
  call MPI_COMM_SIZE(sub, n, ierr)
  call mt_is_int(n, 2, 'MPI_CART_SUB keeping the first dimension: 2 ranks')
  call MPI_CARTDIM_GET(sub, n, ierr)
  call mt_is_int(n, 1, 'MPI_CART_SUB: 1 dimension')
  call MPI_COMM_FREE(sub, ierr)
  call MPI_COMM_FREE(cart, ierr)

  ! ---- an intercommunicator between the two ranks, merged
  call MPI_INTERCOMM_CREATE(MPI_COMM_SELF, 0, MPI_COMM_WORLD, peer, 5, inter, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_INTERCOMM_CREATE')
  flag = .false.
  call MPI_COMM_TEST_INTER(inter, flag, ierr)
  call MPI_COMM_REMOTE_SIZE(inter, n, ierr)
  call mt_ok(flag .and. n == 1, 'MPI_COMM_TEST_INTER .TRUE., MPI_COMM_REMOTE_SIZE 1')
  call MPI_INTERCOMM_MERGE(inter, rank == 0, merged, ierr)
  call MPI_COMM_RANK(merged, n, ierr)
  call mt_is_int(n, 1 - rank, 'MPI_INTERCOMM_MERGE with high = (rank == 0): ranks reversed')
  call MPI_COMM_FREE(merged, ierr)
  call MPI_COMM_FREE(inter, ierr)

  ! ---- MPI_COMM_SPLIT_TYPE, MPI_COMM_DUP_WITH_INFO
  call MPI_COMM_SPLIT_TYPE(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, newcomm, ierr)
  call MPI_COMM_SIZE(newcomm, n, ierr)
  call mt_is_int(n, 2, 'MPI_COMM_SPLIT_TYPE(MPI_COMM_TYPE_SHARED): both ranks on this node')
  call MPI_COMM_FREE(newcomm, ierr)
  call MPI_COMM_DUP_WITH_INFO(MPI_COMM_WORLD, MPI_INFO_NULL, newcomm, ierr)
  call MPI_COMM_COMPARE(MPI_COMM_WORLD, newcomm, res, ierr)
  call mt_is_int(res, MPI_CONGRUENT, 'MPI_COMM_DUP_WITH_INFO: congruent')
  call MPI_COMM_FREE(newcomm, ierr)

  ! ---- info objects: keys and values lose leading and trailing blanks
  call MPI_INFO_CREATE(info, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'MPI_INFO_CREATE')
  call MPI_INFO_SET(info, '  color ', ' blue  ', ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_INFO_SET')
  call MPI_INFO_GET_NKEYS(info, n, ierr)
  call mt_is_int(n, 1, 'MPI_INFO_GET_NKEYS')
  key = '?'
  call MPI_INFO_GET_NTHKEY(info, 0, key, ierr)
  call mt_ok(key == 'color', 'MPI_INFO_GET_NTHKEY: the key without its blanks')
  flag = .false.
  call MPI_INFO_GET_VALUELEN(info, 'color', n, flag, ierr)
  call mt_ok(flag .and. n == 4, 'MPI_INFO_GET_VALUELEN: 4, .TRUE.')
  val = 'xxxxxxxx'
  call MPI_INFO_GET(info, ' color', 8, val, flag, ierr)
  call mt_ok(flag .and. val == 'blue', 'MPI_INFO_GET: the value, blank-padded')
  call MPI_INFO_GET(info, 'color', 2, val, flag, ierr)
  call mt_ok(flag .and. val == 'bl', 'MPI_INFO_GET with valuelen 2: 2 characters')
  val = 'keep'
  flag = .true.
  call MPI_INFO_GET(info, 'size', 8, val, flag, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. flag .and. val == 'keep', 'MPI_INFO_GET of a missing key: .FALSE., value untouched')
  call MPI_INFO_DUP(info, info2, ierr)
  call MPI_INFO_DELETE(info, 'color', ierr)
  call MPI_INFO_GET_NKEYS(info, n, ierr)
  call MPI_INFO_GET_NKEYS(info2, x, ierr)
  call mt_ok(n == 0 .and. x == 1, 'MPI_INFO_DELETE; MPI_INFO_DUP keeps its copy')
  call MPI_COMM_SET_INFO(MPI_COMM_SELF, info2, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_SET_INFO')
  call MPI_COMM_GET_INFO(MPI_COMM_SELF, newcomm, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. newcomm /= MPI_INFO_NULL, 'MPI_COMM_GET_INFO: an info object')
  call MPI_INFO_FREE(newcomm, ierr)
  call MPI_INFO_FREE(info2, ierr)
  call MPI_INFO_FREE(info, ierr)
  call mt_ok(info == MPI_INFO_NULL .and. info2 == MPI_INFO_NULL, 'MPI_INFO_FREE: MPI_INFO_NULL')

  ! ---- names of datatypes, the library's version
  call MPI_TYPE_DUP(MPI_INTEGER, t, ierr)
  call MPI_TYPE_SET_NAME(t, 'my int', ierr)
  cname = '?'
  call MPI_TYPE_GET_NAME(t, cname, n, ierr)
  call mt_ok(cname == 'my int' .and. n == 6, 'MPI_TYPE_SET_NAME, MPI_TYPE_GET_NAME')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_GET_NAME(MPI_DOUBLE_PRECISION, cname, n, ierr)
  call mt_ok(cname == 'MPI_DOUBLE_PRECISION' .and. n == 20, 'MPI_TYPE_GET_NAME of MPI_DOUBLE_PRECISION')
  call MPI_GET_LIBRARY_VERSION(lver, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n > 0 .and. len_trim(lver) == n .and. index(lver, 'rdmpi') > 0, &
             'MPI_GET_LIBRARY_VERSION: rdmpi, resultlen')

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_more
