! f90_mpi1.f90 - mpif.h, 2 ranks: the MPI-1 calls that MPI-3.0 removed and
! old codes still make (runtime/fortran/README.md, "MPI-1's functions"),
! with default INTEGER values: MPI_ATTR_GET of MPI_TAG_UB, MPI_KEYVAL_CREATE
! with MPI_DUP_FN, MPI_NULL_COPY_FN and a Fortran copy and delete function
! (INTEGER arguments), MPI_ATTR_PUT, MPI_COMM_DUP, MPI_ATTR_DELETE,
! MPI_COMM_FREE, MPI_KEYVAL_FREE; MPI_ADDRESS, MPI_TYPE_EXTENT / LB / UB,
! MPI_TYPE_HVECTOR / HINDEXED / STRUCT, a value too large for an INTEGER;
! MPI_ERRHANDLER_CREATE / SET / GET; and MPI_COMM_IDUP,
! MPI_COMM_IDUP_WITH_INFO completed by MPI_WAIT / MPI_WAITALL, then an
! MPI_ALLREDUCE on each new communicator, and one whose agreement fails at
! completion (no context id left) giving MPI_COMM_NULL. Exact values. The program comes
! first: fortran.sh puts `use mpi` before the first `implicit none`.

program f90_mpi1
  implicit none
  include 'mpif.h'
  external f1_copy, f1_del, f1_errh
  integer :: ierr, rank, np, val, kdup, knull, kuser, kgone, c1, c2, c3, c4, old, eh, eh2
  integer :: iaddr, ext, lb, ub, t, th, ts, i, sum, res, req, reqs(2), st(MPI_STATUS_SIZE)
  integer :: sts(MPI_STATUS_SIZE, 2), src(12), got(4), cself(8192), nself
  integer(kind=MPI_ADDRESS_KIND) :: aval, aaddr, big
  logical :: found
  double precision :: d
  integer :: cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  common /f1_cb/ cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  integer :: eh_n, eh_comm, eh_code
  common /f1_eh/ eh_n, eh_comm, eh_code

  call mt_start(rank, np)
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
  cp_n = 0
  dl_n = 0
  eh_n = 0

  ! ---- the predefined attributes as default INTEGERs
  val = -1
  found = .false.
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, val, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. val == 2147483647, 'MPI_ATTR_GET(MPI_TAG_UB): 2147483647')
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_IO, val, found, ierr)
  call mt_ok(found .and. val == MPI_ANY_SOURCE, 'MPI_ATTR_GET(MPI_IO): MPI_ANY_SOURCE')
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_HOST, val, found, ierr)
  call mt_ok(found .and. val == MPI_PROC_NULL, 'MPI_ATTR_GET(MPI_HOST): MPI_PROC_NULL')

  ! ---- keyvals: the predefined callbacks, and Fortran ones with INTEGER values
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, kdup, 0, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kdup /= MPI_KEYVAL_INVALID, 'MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN)')
  call MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, knull, 0, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_KEYVAL_CREATE(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN)')
  call MPI_KEYVAL_CREATE(f1_copy, f1_del, kuser, 77, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kuser /= kdup .and. kuser /= knull, &
             'MPI_KEYVAL_CREATE of Fortran functions, extra state 77')
  call MPI_COMM_DUP(MPI_COMM_WORLD, c1, ierr)
  call MPI_ATTR_PUT(c1, kdup, 123, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ATTR_PUT')
  call MPI_ATTR_PUT(c1, knull, 456, ierr)
  call MPI_ATTR_PUT(c1, kuser, -5, ierr)
  val = 0
  call MPI_ATTR_GET(c1, kuser, val, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. val == -5, 'MPI_ATTR_GET: the value put (-5)')
  aval = 0
  call MPI_COMM_GET_ATTR(c1, kuser, aval, found, ierr)
  call mt_ok(found .and. aval == -5, 'MPI_COMM_GET_ATTR: -5 sign-extended to the address kind')

  call MPI_COMM_DUP(c1, c2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. cp_n == 1, 'MPI_COMM_DUP: the Fortran copy function ran once')
  call mt_ok(cp_comm == c1 .and. cp_key == kuser .and. cp_extra == 77 .and. cp_in == -5, &
             'its INTEGER arguments: the old communicator, the keyval, extra state 77, the value -5')
  call MPI_ATTR_GET(c2, kuser, val, found, ierr)
  call mt_ok(found .and. val == -15, 'the duplicate holds the copy function''s value (-15)')
  call MPI_ATTR_GET(c2, kdup, val, found, ierr)
  call mt_ok(found .and. val == 123, 'MPI_DUP_FN: 123 copied')
  call MPI_ATTR_GET(c2, knull, val, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. found, 'MPI_NULL_COPY_FN: not copied')

  call MPI_ATTR_PUT(c2, kuser, 8, ierr)
  call mt_ok(dl_n == 1 .and. dl_comm == c2 .and. dl_key == kuser .and. dl_val == -15 .and. dl_extra == 77, &
             'MPI_ATTR_PUT over a value: the delete function with the communicator, keyval, -15, 77')
  call MPI_ATTR_DELETE(c2, kuser, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. dl_n == 2 .and. dl_val == 8, 'MPI_ATTR_DELETE: the delete function with 8')
  call MPI_ATTR_GET(c2, kuser, val, found, ierr)
  call mt_ok(.not. found, 'MPI_ATTR_GET after the delete: flag .FALSE.')
  old = c1
  call MPI_COMM_FREE(c1, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. c1 == MPI_COMM_NULL, 'MPI_COMM_FREE: MPI_COMM_NULL')
  call mt_ok(dl_n == 3 .and. dl_comm == old .and. dl_val == -5, 'MPI_COMM_FREE ran the delete function on -5')
  kgone = kuser
  call MPI_KEYVAL_FREE(kuser, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kuser == MPI_KEYVAL_INVALID, 'MPI_KEYVAL_FREE: MPI_KEYVAL_INVALID')

  ! the low-order part of an address-sized value (the standard's MPI_ATTR_GET)
  call MPI_COMM_SET_ATTR(c2, knull, 8589934599_MPI_ADDRESS_KIND, ierr)
  call MPI_ATTR_GET(c2, knull, val, found, ierr)
  call mt_ok(found .and. val == 7, 'MPI_ATTR_GET of 2**33 + 7 set by MPI_COMM_SET_ATTR: the low-order part, 7')

  ! errors, returned
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, kgone, 1, ierr)
  call mt_is_int(ierr, MPI_ERR_KEYVAL, 'MPI_ATTR_PUT of a freed keyval: MPI_ERR_KEYVAL')
  call MPI_ATTR_PUT(MPI_COMM_WORLD, MPI_TAG_UB, 1, ierr)
  call mt_is_int(ierr, MPI_ERR_KEYVAL, 'MPI_ATTR_PUT of MPI_TAG_UB: MPI_ERR_KEYVAL')
  call MPI_ATTR_GET(MPI_COMM_WORLD, 12345, val, found, ierr)
  call mt_is_int(ierr, MPI_ERR_KEYVAL, 'MPI_ATTR_GET of an unknown keyval: MPI_ERR_KEYVAL')
  call MPI_KEYVAL_FREE(kgone, ierr)
  call mt_is_int(ierr, MPI_ERR_KEYVAL, 'MPI_KEYVAL_FREE twice: MPI_ERR_KEYVAL')

  ! ---- addresses and extents as default INTEGERs
  call MPI_ADDRESS(MPI_BOTTOM, iaddr, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. iaddr == 0, 'MPI_ADDRESS(MPI_BOTTOM): 0')
  call MPI_GET_ADDRESS(d, aaddr, ierr)
  iaddr = -1
  call MPI_ADDRESS(d, iaddr, ierr)
  if (aaddr >= -2147483648_MPI_ADDRESS_KIND .and. aaddr <= 2147483647_MPI_ADDRESS_KIND) then
    call mt_ok(ierr == MPI_SUCCESS .and. iaddr == aaddr, 'MPI_ADDRESS of a variable below 2 GiB: MPI_GET_ADDRESS''s')
  else
    call mt_ok(ierr == MPI_ERR_ARG .and. iaddr == -1, &
               'MPI_ADDRESS of a variable above 2 GiB: MPI_ERR_ARG, the INTEGER left alone')
  end if
  call MPI_TYPE_EXTENT(MPI_DOUBLE_PRECISION, ext, ierr)
  call MPI_TYPE_LB(MPI_DOUBLE_PRECISION, lb, ierr)
  call MPI_TYPE_UB(MPI_DOUBLE_PRECISION, ub, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ext == 8 .and. lb == 0 .and. ub == 8, &
             'MPI_DOUBLE_PRECISION: MPI_TYPE_EXTENT 8, MPI_TYPE_LB 0, MPI_TYPE_UB 8')
  ! an extent of 2**32 bytes does not fit
  big = 4294967296_MPI_ADDRESS_KIND
  call MPI_TYPE_CREATE_RESIZED(MPI_INTEGER, 4_MPI_ADDRESS_KIND, big, t, ierr)
  ext = -1
  call MPI_TYPE_EXTENT(t, ext, ierr)
  call mt_ok(ierr == MPI_ERR_ARG .and. ext == -1, 'MPI_TYPE_EXTENT of 2**32 bytes: MPI_ERR_ARG, nothing written')
  call MPI_TYPE_UB(t, ub, ierr)
  call mt_is_int(ierr, MPI_ERR_ARG, 'MPI_TYPE_UB of 4 + 2**32: MPI_ERR_ARG')
  call MPI_TYPE_LB(t, lb, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. lb == 4, 'MPI_TYPE_LB of it: 4 fits')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_EXTENT(MPI_DATATYPE_NULL, ext, ierr)
  call mt_is_int(ierr, MPI_ERR_TYPE, 'MPI_TYPE_EXTENT(MPI_DATATYPE_NULL): MPI_ERR_TYPE')

  ! hvector: 3 INTEGERs, 16 bytes apart: elements 1, 5, 9
  call MPI_TYPE_HVECTOR(3, 1, 16, MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call MPI_TYPE_EXTENT(t, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ext == 36, 'MPI_TYPE_HVECTOR(3, 1, 16, MPI_INTEGER): extent 36')
  ! hindexed: 1 INTEGER at byte 8, 2 at 0: elements 3, 1 2
  call MPI_TYPE_HINDEXED(2, (/ 1, 2 /), (/ 8, 0 /), MPI_INTEGER, th, ierr)
  call MPI_TYPE_COMMIT(th, ierr)
  call MPI_TYPE_EXTENT(th, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ext == 12, 'MPI_TYPE_HINDEXED: extent 12')
  ! struct: 1 INTEGER at byte 4, 1 DOUBLE PRECISION at 8: lb 4, and the
  ! extent 12 rounded up to DOUBLE PRECISION's alignment, 16 (ub 20)
  call MPI_TYPE_STRUCT(2, (/ 1, 1 /), (/ 4, 8 /), (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /), ts, ierr)
  call MPI_TYPE_COMMIT(ts, ierr)
  call MPI_TYPE_LB(ts, lb, ierr)
  call MPI_TYPE_UB(ts, ub, ierr)
  call MPI_TYPE_EXTENT(ts, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. lb == 4 .and. ub == 20 .and. ext == 16, &
             'MPI_TYPE_STRUCT: lb 4, extent 12 aligned to 16, ub 20')
  do i = 1, 12
    src(i) = 10 * i
  end do
  if (rank == 0) then
    call MPI_SEND(src, 1, t, 1, 1, MPI_COMM_WORLD, ierr)
    call MPI_SEND(src, 1, th, 1, 2, MPI_COMM_WORLD, ierr)
  else
    got = -1
    call MPI_RECV(got, 3, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st, ierr)
    call mt_ok(got(1) == 10 .and. got(2) == 50 .and. got(3) == 90 .and. got(4) == -1, &
               'sent as MPI_TYPE_HVECTOR: elements 1 5 9 (10 50 90)')
    call MPI_RECV(got, 3, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, st, ierr)
    call mt_ok(got(1) == 30 .and. got(2) == 10 .and. got(3) == 20, 'sent as MPI_TYPE_HINDEXED: elements 3 1 2')
  end if
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_FREE(th, ierr)
  call MPI_TYPE_FREE(ts, ierr)

  ! ---- error handlers
  call MPI_ERRHANDLER_CREATE(f1_errh, eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_CREATE of a Fortran subroutine')
  call MPI_ERRHANDLER_SET(c2, eh, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ERRHANDLER_SET')
  call MPI_ERRHANDLER_GET(c2, eh2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh2 == eh, 'MPI_ERRHANDLER_GET: the handler set')
  call MPI_ERRHANDLER_FREE(eh2, ierr)
  call MPI_SEND(src, 1, MPI_INTEGER, -5, 0, c2, ierr)
  call mt_ok(eh_n == 1 .and. eh_comm == c2 .and. eh_code == MPI_ERR_RANK .and. ierr == MPI_ERR_RANK, &
             'MPI_SEND to rank -5: the handler with the communicator and MPI_ERR_RANK')
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call MPI_ERRHANDLER_SET(c2, MPI_ERRORS_RETURN, ierr)
  call MPI_ERRHANDLER_GET(c2, eh2, ierr)
  call mt_ok(eh2 == MPI_ERRORS_RETURN, 'MPI_ERRHANDLER_GET: MPI_ERRORS_RETURN')

  ! ---- MPI_COMM_IDUP: the handle is usable once the request completes
  call MPI_COMM_IDUP(MPI_COMM_WORLD, c3, req, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. c3 /= MPI_COMM_NULL .and. req /= MPI_REQUEST_NULL, &
             'MPI_COMM_IDUP: a communicator and a request')
  call MPI_WAIT(req, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI_WAIT completes it')
  call MPI_COMM_COMPARE(c3, MPI_COMM_WORLD, res, ierr)
  call mt_is_int(res, MPI_CONGRUENT, 'MPI_COMM_COMPARE with MPI_COMM_WORLD: MPI_CONGRUENT')
  sum = -1
  call MPI_ALLREDUCE(rank + 1, sum, 1, MPI_INTEGER, MPI_SUM, c3, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. sum == 3, 'MPI_ALLREDUCE on the new communicator: 1 + 2')
  ! two at once, one with info, from a communicator with attributes
  call MPI_ATTR_PUT(c2, kdup, 99, ierr)
  call MPI_COMM_IDUP(c2, c4, reqs(1), ierr)
  call MPI_COMM_IDUP_WITH_INFO(c3, MPI_INFO_NULL, c1, reqs(2), ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. c4 /= c1 .and. c4 /= c3, 'MPI_COMM_IDUP and MPI_COMM_IDUP_WITH_INFO at once')
  call MPI_WAITALL(2, reqs, sts, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'MPI_WAITALL')
  call MPI_ATTR_GET(c4, kdup, val, found, ierr)
  call mt_ok(found .and. val == 99, 'MPI_COMM_IDUP copied the attribute through MPI_DUP_FN (99)')
  sum = -1
  call MPI_ALLREDUCE(10 * (rank + 1), sum, 1, MPI_INTEGER, MPI_SUM, c4, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. sum == 30, 'MPI_ALLREDUCE on the MPI_COMM_IDUP of a duplicate: 30')
  sum = -1
  call MPI_ALLREDUCE(rank, sum, 1, MPI_INTEGER, MPI_MAX, c1, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. sum == 1, 'MPI_ALLREDUCE on the MPI_COMM_IDUP_WITH_INFO one: max 1')
  call MPI_COMM_FREE(c1, ierr)
  call MPI_COMM_FREE(c4, ierr)
  call MPI_COMM_FREE(c3, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. c3 == MPI_COMM_NULL, 'MPI_COMM_FREE of the new communicators')
  call MPI_COMM_FREE(c2, ierr)

  ! an agreement that fails at completion: MPI_COMM_IDUP of MPI_COMM_SELF
  ! until no context id is left; the failed one's newcomm becomes
  ! MPI_COMM_NULL when MPI_WAIT completes it (the library writes it)
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  nself = 0
  ierr = MPI_SUCCESS
  do while (ierr == MPI_SUCCESS .and. nself < size(cself))
    nself = nself + 1
    cself(nself) = MPI_COMM_WORLD
    call MPI_COMM_IDUP(MPI_COMM_SELF, cself(nself), req, ierr)
    if (ierr == MPI_SUCCESS) call MPI_WAIT(req, st, ierr)
  end do
  call mt_ok(ierr == MPI_ERR_INTERN .and. nself > 1000 .and. nself < size(cself), &
             'MPI_COMM_IDUP of MPI_COMM_SELF until no context id is free: MPI_WAIT gives MPI_ERR_INTERN')
  call mt_ok(cself(nself) == MPI_COMM_NULL .and. req == MPI_REQUEST_NULL, &
             'the failed MPI_COMM_IDUP''s newcomm: MPI_COMM_NULL')
  ! (on MPI_COMM_SELF it may fail inside the call; on MPI_COMM_WORLD rank 0
  ! starts first and returns, then tells rank 1 to start: rank 0's fails
  ! in MPI_WAIT, when the glue's own variables are long gone)
  c3 = MPI_COMM_WORLD
  if (rank == 0) then
    call MPI_COMM_IDUP(MPI_COMM_WORLD, c3, req, ierr)
    call mt_ok(ierr == MPI_SUCCESS .and. c3 /= MPI_COMM_NULL .and. c3 /= MPI_COMM_WORLD, &
               'rank 0: MPI_COMM_IDUP of MPI_COMM_WORLD with no context id free: a handle, for now')
    call MPI_SEND(i, 1, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, ierr)
  else
    call MPI_RECV(i, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, st, ierr)
    call MPI_COMM_IDUP(MPI_COMM_WORLD, c3, req, ierr)
    call mt_ok(ierr == MPI_SUCCESS .and. c3 /= MPI_COMM_WORLD, 'rank 1: MPI_COMM_IDUP of MPI_COMM_WORLD')
  end if
  call MPI_WAIT(req, st, ierr)
  call mt_ok(ierr == MPI_ERR_INTERN .and. c3 == MPI_COMM_NULL, &
             'MPI_WAIT: MPI_ERR_INTERN, and newcomm became MPI_COMM_NULL at completion')
  res = MPI_SUCCESS
  do i = 1, nself - 1
    call MPI_COMM_FREE(cself(i), ierr)
    if (ierr /= MPI_SUCCESS) res = ierr
  end do
  call mt_is_int(res, MPI_SUCCESS, 'the other communicators free')
  call MPI_COMM_IDUP(MPI_COMM_SELF, c3, req, ierr)
  call MPI_WAIT(req, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. c3 /= MPI_COMM_NULL, 'then MPI_COMM_IDUP succeeds again')
  call MPI_COMM_FREE(c3, ierr)

  call MPI_KEYVAL_FREE(kdup, ierr)
  call MPI_KEYVAL_FREE(knull, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kdup == MPI_KEYVAL_INVALID, 'MPI_KEYVAL_FREE of the predefined callbacks'' keyvals')

  call MPI_FINALIZE(ierr)
  call mt_done()
end program f90_mpi1

! MPI-1's callbacks: every argument a default INTEGER (the flag LOGICAL);
! no MPI constant here (fortran.sh's `use mpi` variant has none in them).
subroutine f1_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierr)
  implicit none
  integer :: oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, ierr
  logical :: flag
  integer :: cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  common /f1_cb/ cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  cp_n = cp_n + 1
  cp_comm = oldcomm
  cp_key = keyval
  cp_extra = extra_state
  cp_in = attribute_val_in
  attribute_val_out = 3 * attribute_val_in
  flag = .true.
  ierr = 0
end subroutine f1_copy

subroutine f1_del(comm, keyval, attribute_val, extra_state, ierr)
  implicit none
  integer :: comm, keyval, attribute_val, extra_state, ierr
  integer :: cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  common /f1_cb/ cp_n, cp_comm, cp_key, cp_extra, cp_in, dl_n, dl_comm, dl_key, dl_val, dl_extra
  dl_n = dl_n + 1
  dl_comm = comm
  dl_key = keyval
  dl_val = attribute_val
  dl_extra = extra_state
  ierr = 0
end subroutine f1_del

subroutine f1_errh(comm, code)
  implicit none
  integer :: comm, code
  integer :: eh_n, eh_comm, eh_code
  common /f1_eh/ eh_n, eh_comm, eh_code
  eh_n = eh_n + 1
  eh_comm = comm
  eh_code = code
end subroutine f1_errh
