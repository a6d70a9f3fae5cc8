! f90_coll.f90 - mpif.h in free source form, 2 ranks: MPI_ISEND /
! MPI_IRECV / MPI_WAITALL (statuses; requests become MPI_REQUEST_NULL;
! MPI_STATUSES_IGNORE), MPI_WAIT, MPI_ALLREDUCE of INTEGER and DOUBLE
! PRECISION with MPI_SUM, MPI_IN_PLACE in MPI_ALLREDUCE and MPI_REDUCE,
! MPI_GATHER, MPI_ALLGATHER, MPI_COMM_SPLIT / MPI_COMM_DUP / MPI_COMM_FREE,
! a contiguous datatype, MPI_BOTTOM with a struct type of absolute
! addresses (MPI_GET_ADDRESS, MPI_TYPE_CREATE_STRUCT), MPI_GET_PROCESSOR_NAME (the host the test gives
! in RD_FTEST_HOST), MPI_ERROR_STRING. Exact values throughout.
program f90_coll
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, peer, i, n, nbad, newcomm, newrank, t, key, v
  integer :: req(4), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 4)
  integer :: si(5), ri(5), isum, ivals(2), g(2), six(6), rsix(6)
  double precision :: sd(3), rd(3), dsum, dv
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  character(len=4) :: short
  character(len=256) :: host
  character(len=MPI_MAX_ERROR_STRING) :: estr
  integer(kind=MPI_ADDRESS_KIND) :: addr(2)
  integer :: bl(2), types(2), bi
  double precision :: bd
  ! (in a common block: the compiler must assume MPI_RECV into MPI_BOTTOM
  ! may change them)
  common /f90_coll_bottom/ bd, bi

  call mt_start(rank, np)
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
  peer = 1 - rank

  ! ---- MPI_ISEND / MPI_IRECV of INTEGERs and DOUBLE PRECISIONs, MPI_WAITALL
  do i = 1, 5
    si(i) = rank * 1000 + i
    ri(i) = -1
  end do
  do i = 1, 3
    sd(i) = rank + i * 0.25d0
    rd(i) = -1
  end do
  call MPI_IRECV(ri, 5, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, req(1), ierr)
  call MPI_IRECV(rd, 3, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, req(2), ierr)
  call MPI_ISEND(si, 5, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, req(3), ierr)
  call MPI_ISEND(sd, 3, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, req(4), ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_IRECV, MPI_ISEND')
  call mt_ok(all(req /= MPI_REQUEST_NULL), 'the 4 requests are not MPI_REQUEST_NULL')
  sts = -7
  call MPI_WAITALL(4, req, sts, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WAITALL of 4 requests')
  call mt_ok(all(req == MPI_REQUEST_NULL), 'MPI_WAITALL: every request is MPI_REQUEST_NULL')
  nbad = 0
  do i = 1, 5
    if (ri(i) /= peer * 1000 + i) nbad = nbad + 1
  end do
  call mt_is_int(nbad, 0, 'MPI_IRECV of 5 INTEGERs: the values')
  call mt_ok(rd(1) == peer + 0.25d0 .and. rd(2) == peer + 0.5d0 .and. rd(3) == peer + 0.75d0, &
             'MPI_IRECV of 3 DOUBLE PRECISIONs: the values')
  call mt_is_int(sts(MPI_SOURCE, 1), peer, 'MPI_WAITALL: statuses(MPI_SOURCE, 1)')
  call mt_is_int(sts(MPI_TAG, 1), 3, 'MPI_WAITALL: statuses(MPI_TAG, 1)')
  call mt_is_int(sts(MPI_TAG, 2), 4, 'MPI_WAITALL: statuses(MPI_TAG, 2)')
  call MPI_GET_COUNT(sts(1, 2), MPI_DOUBLE_PRECISION, n, ierr)
  call mt_is_int(n, 3, 'MPI_GET_COUNT of statuses(:, 2)')

  ! MPI_STATUSES_IGNORE, then MPI_WAIT with a status
  call MPI_IRECV(ri, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, req(1), ierr)
  v = rank + 40 ! (a variable: the send reads it until MPI_WAITALL)
  call MPI_ISEND(v, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, req(2), ierr)
  call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WAITALL with MPI_STATUSES_IGNORE')
  call mt_is_int(ri(1), peer + 40, 'MPI_WAITALL with MPI_STATUSES_IGNORE: the value')
  call mt_ok(req(1) == MPI_REQUEST_NULL .and. req(2) == MPI_REQUEST_NULL, &
             'MPI_WAITALL with MPI_STATUSES_IGNORE: the requests are MPI_REQUEST_NULL')
  call mt_ok(all(MPI_STATUSES_IGNORE == 0), 'MPI_STATUSES_IGNORE is not written')
  call MPI_IRECV(ri, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req(1), ierr)
  call MPI_SEND(si, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, ierr)
  call MPI_WAIT(req(1), st, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WAIT')
  call mt_is_int(req(1), MPI_REQUEST_NULL, 'MPI_WAIT: the request is MPI_REQUEST_NULL')
  call mt_is_int(st(MPI_SOURCE), peer, 'MPI_WAIT: status(MPI_SOURCE)')
  call mt_is_int(st(MPI_TAG), 6, 'MPI_WAIT: status(MPI_TAG)')

  ! ---- MPI_ALLREDUCE with MPI_SUM
  call MPI_ALLREDUCE(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ALLREDUCE of INTEGER')
  call mt_is_int(isum, 3, 'MPI_ALLREDUCE of INTEGER with MPI_SUM: 1 + 2')
  dv = 0.5d0 * (rank + 1)
  call MPI_ALLREDUCE(dv, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_is_dbl(dsum, 1.5d0, 'MPI_ALLREDUCE of DOUBLE PRECISION with MPI_SUM: 0.5 + 1')
  ! MPI_IN_PLACE
  ivals(1) = rank + 10
  ivals(2) = 100 * rank
  call MPI_ALLREDUCE(MPI_IN_PLACE, ivals, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ALLREDUCE with MPI_IN_PLACE')
  call mt_ok(ivals(1) == 21 .and. ivals(2) == 100, 'MPI_ALLREDUCE with MPI_IN_PLACE: 10 + 11, 0 + 100')
  call mt_is_int(MPI_IN_PLACE, 0, 'MPI_IN_PLACE is not written')
  ! MPI_REDUCE to rank 1, in place there
  sd(1) = 2.5d0 + rank
  sd(2) = -1
  if (rank == 1) then
    call MPI_REDUCE(MPI_IN_PLACE, sd, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 1, MPI_COMM_WORLD, ierr)
    call mt_is_dbl(sd(1), 6.0d0, 'MPI_REDUCE with MPI_IN_PLACE at the root: 2.5 + 3.5')
  else
    call MPI_REDUCE(sd, rd, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 1, MPI_COMM_WORLD, ierr)
  end if
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REDUCE')

  ! ---- MPI_GATHER, MPI_ALLGATHER
  g = -1
  call MPI_GATHER(rank * 2 + 5, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_GATHER')
  if (rank == 0) call mt_ok(g(1) == 5 .and. g(2) == 7, 'MPI_GATHER at rank 0: 5, 7')
  g = -1
  call MPI_ALLGATHER(rank * 3 - 1, 1, MPI_INTEGER, g, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. g(1) == -1 .and. g(2) == 2, 'MPI_ALLGATHER: -1, 2')

  ! ---- communicators: split (ranks reversed), dup, free
  key = -rank
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, key, newcomm, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_SPLIT')
  call mt_ok(newcomm /= MPI_COMM_NULL .and. newcomm /= MPI_COMM_WORLD, 'MPI_COMM_SPLIT: a new communicator')
  call MPI_COMM_RANK(newcomm, newrank, ierr)
  call mt_is_int(newrank, 1 - rank, 'MPI_COMM_SPLIT with key -rank: ranks reversed')
  call MPI_ALLREDUCE(newrank * 5, isum, 1, MPI_INTEGER, MPI_SUM, newcomm, ierr)
  call mt_is_int(isum, 5, 'MPI_ALLREDUCE on the split communicator')
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, MPI_UNDEFINED, 0, t, ierr)
  call mt_is_int(t, MPI_COMM_NULL, 'MPI_COMM_SPLIT with MPI_UNDEFINED: MPI_COMM_NULL')
  call MPI_COMM_FREE(newcomm, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_FREE')
  call mt_is_int(newcomm, MPI_COMM_NULL, 'MPI_COMM_FREE: the handle is MPI_COMM_NULL')
  call MPI_COMM_DUP(MPI_COMM_WORLD, newcomm, ierr)
  call MPI_COMM_RANK(newcomm, newrank, ierr)
  call mt_is_int(newrank, rank, 'MPI_COMM_DUP: the same rank')
  call MPI_BARRIER(newcomm, ierr)
  call MPI_COMM_FREE(newcomm, ierr)
  call mt_is_int(newcomm, MPI_COMM_NULL, 'MPI_COMM_FREE of the duplicate: MPI_COMM_NULL')

  ! ---- a contiguous datatype of 3 INTEGERs
  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_TYPE_CONTIGUOUS, MPI_TYPE_COMMIT')
  do i = 1, 6
    six(i) = rank * 10 + i
    rsix(i) = 0
  end do
  call MPI_SENDRECV(six, 2, t, peer, 8, rsix, 2, t, peer, 8, MPI_COMM_WORLD, st, ierr)
  nbad = 0
  do i = 1, 6
    if (rsix(i) /= peer * 10 + i) nbad = nbad + 1
  end do
  call mt_is_int(nbad, 0, 'MPI_SENDRECV of 2 contiguous types: the 6 values')
  call MPI_GET_COUNT(st, t, n, ierr)
  call mt_is_int(n, 2, 'MPI_GET_COUNT in the contiguous type')
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_is_int(n, 6, 'MPI_GET_COUNT in INTEGERs')
  call MPI_TYPE_FREE(t, ierr)
  call mt_is_int(t, MPI_DATATYPE_NULL, 'MPI_TYPE_FREE: the handle is MPI_DATATYPE_NULL')

  ! ---- MPI_BOTTOM: a struct of the absolute addresses of bi and bd
  bi = rank * 7 + 1
  bd = rank + 0.125d0
  call MPI_GET_ADDRESS(bi, addr(1), ierr)
  call MPI_GET_ADDRESS(bd, addr(2), ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_GET_ADDRESS')
  bl = 1
  types(1) = MPI_INTEGER
  types(2) = MPI_DOUBLE_PRECISION
  call MPI_TYPE_CREATE_STRUCT(2, bl, addr, types, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_TYPE_CREATE_STRUCT of absolute addresses')
  if (rank == 0) then
    call MPI_SEND(MPI_BOTTOM, 1, t, 1, 10, MPI_COMM_WORLD, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_SEND from MPI_BOTTOM')
  else
    call MPI_RECV(MPI_BOTTOM, 1, t, 0, 10, MPI_COMM_WORLD, st, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_RECV into MPI_BOTTOM')
    call mt_is_int(bi, 1, 'MPI_RECV into MPI_BOTTOM: the INTEGER')
    call mt_is_dbl(bd, 0.125d0, 'MPI_RECV into MPI_BOTTOM: the DOUBLE PRECISION')
  end if
  call mt_is_int(MPI_BOTTOM, 0, 'MPI_BOTTOM is not written')
  call MPI_TYPE_FREE(t, ierr)

  ! ---- strings out: blank-padded, cut at the argument's length
  call get_environment_variable('RD_FTEST_HOST', host)
  pname = 'x'
  call MPI_GET_PROCESSOR_NAME(pname, n, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_GET_PROCESSOR_NAME')
  call mt_ok(pname == host .and. len_trim(host) > 0, 'MPI_GET_PROCESSOR_NAME: the host name')
  call mt_is_int(n, len_trim(host), 'MPI_GET_PROCESSOR_NAME: resultlen')
  call mt_is_int(len_trim(pname), n, 'MPI_GET_PROCESSOR_NAME: blank after resultlen')
  short = '????'
  call MPI_GET_PROCESSOR_NAME(short, n, ierr)
  call mt_ok(short == host(1:min(4, len_trim(host))) .and. n == len_trim(host), &
             'MPI_GET_PROCESSOR_NAME into CHARACTER*4: cut, resultlen whole')
  call MPI_ERROR_STRING(MPI_ERR_TRUNCATE, estr, n, ierr)
  call mt_ok(estr == 'MPI_ERR_TRUNCATE: message truncated', 'MPI_ERROR_STRING(MPI_ERR_TRUNCATE)')
  call mt_is_int(n, 35, 'MPI_ERROR_STRING: resultlen')

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_coll
