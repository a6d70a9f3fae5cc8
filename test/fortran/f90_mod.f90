! f90_mod.f90 - the mpi module (use mpi), 2 ranks: choice buffers of
! several types and ranks through the same interfaces (an INTEGER array,
! a REAL(8) 2-D array and a non-contiguous section of it, an INTEGER
! scalar, a CHARACTER string) with statuses and MPI_STATUS_IGNORE;
! MPI_ALLREDUCE with MPI_IN_PLACE; the special objects are the glue's
! (MPI_STATUS_IGNORE left untouched, MPI_BOTTOM with absolute addresses,
! MPI_STATUSES_IGNORE); MPI_SIZEOF of each intrinsic type; address-kind
! arguments (MPI_GET_ADDRESS, MPI_AINT_DIFF, MPI_TYPE_CREATE_STRUCT,
! MPI_TYPE_GET_EXTENT); MPI_F_SYNC_REG around MPI_WAIT; MPI_RECV's status
! through MPI_STATUS_F2F08 and MPI_STATUS_F082F and back (the module has
! TYPE(MPI_Status)); a PMPI_ name; MPI_WTIME as a function; the
! module's LOGICAL constants. Exact values throughout.
program f90_mod
  use mpi
  implicit none
  integer :: ierr, rank, np, peer, i, j, n, nbad, st(MPI_STATUS_SIZE), st2(MPI_STATUS_SIZE)
  type(MPI_Status) :: s08
  integer :: ia(4), ra(4), isc, risc, isum(3), bl(2), types(2), stype, req(2), btype
  double precision :: d2(2, 3), r2(2, 3), row(3), rr(4), t
  character(len=6) :: cs, cr
  integer(kind=MPI_ADDRESS_KIND) :: a1, a2, disp(2), lb, ext
  integer(kind=1) :: i1
  integer(kind=2) :: i2(3)
  integer(kind=8) :: i8(2, 2)
  real(kind=4) :: r4
  real(kind=16) :: r16(2)
  complex(kind=4) :: z4
  complex(kind=8) :: z8(5)
  complex(kind=16) :: z16
  logical :: l4
  logical(kind=1) :: l1(2)

  call mt_start(rank, np)
  call mt_is_int(np, 2, 'use mpi: MPI_COMM_SIZE of MPI_COMM_WORLD')
  peer = 1 - rank

  ! ---- an INTEGER array, with a status
  do i = 1, 4
    ia(i) = rank * 10 + i
  end do
  ra = -1
  st = -7
  call MPI_SENDRECV(ia, 4, MPI_INTEGER, peer, 1, ra, 4, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, st, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_SENDRECV of an INTEGER array')
  nbad = 0
  do i = 1, 4
    if (ra(i) /= peer * 10 + i) nbad = nbad + 1
  end do
  call mt_is_int(nbad, 0, 'MPI_SENDRECV of an INTEGER array: the 4 values')
  call mt_is_int(st(MPI_SOURCE), peer, 'MPI_SENDRECV: status(MPI_SOURCE)')
  call mt_is_int(st(MPI_TAG), 1, 'MPI_SENDRECV: status(MPI_TAG)')
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_is_int(n, 4, 'MPI_GET_COUNT of the INTEGER array: 4')

  ! ---- a REAL(8) 2-D array: MPI_SEND and MPI_RECV with a status
  do j = 1, 3
    do i = 1, 2
      d2(i, j) = rank * 100 + i * 10 + j + 0.5d0
    end do
  end do
  r2 = -1
  st = -7
  if (rank == 0) then
    call MPI_SEND(d2, 6, MPI_DOUBLE_PRECISION, 1, 2, MPI_COMM_WORLD, ierr)
    call MPI_RECV(r2, 6, MPI_DOUBLE_PRECISION, 1, 3, MPI_COMM_WORLD, st, ierr)
  else
    call MPI_RECV(r2, 6, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, st, ierr)
    call MPI_SEND(d2, 6, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, ierr)
  end if
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_SEND / MPI_RECV of a REAL(8) 2-D array')
  nbad = 0
  do j = 1, 3
    do i = 1, 2
      if (r2(i, j) /= peer * 100 + i * 10 + j + 0.5d0) nbad = nbad + 1
    end do
  end do
  call mt_is_int(nbad, 0, 'MPI_RECV of a REAL(8) 2-D array: the 6 values in place')
  call mt_is_int(st(MPI_SOURCE), peer, 'MPI_RECV: status(MPI_SOURCE)')
  call mt_is_int(st(MPI_TAG), 3 - rank, 'MPI_RECV: status(MPI_TAG)')
  call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, n, ierr)
  call mt_is_int(n, 6, 'MPI_GET_COUNT of the REAL(8) array: 6')

  ! ---- a non-contiguous section (row 1: stride 2), copied in by the compiler
  row = -1
  call MPI_SENDRECV(d2(1, :), 3, MPI_DOUBLE_PRECISION, peer, 4, row, 3, MPI_DOUBLE_PRECISION, &
                    peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mt_ok(row(1) == peer * 100 + 11.5d0 .and. row(2) == peer * 100 + 12.5d0 .and. &
             row(3) == peer * 100 + 13.5d0, 'MPI_SENDRECV of the section d2(1, :): the 3 values')

  ! ---- an INTEGER scalar
  isc = rank + 41
  risc = -1
  call MPI_SENDRECV(isc, 1, MPI_INTEGER, peer, 5, risc, 1, MPI_INTEGER, peer, 5, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mt_is_int(risc, peer + 41, 'MPI_SENDRECV of an INTEGER scalar')
  call mt_ok(all(MPI_STATUS_IGNORE == 0), &
             'MPI_STATUS_IGNORE is the glue''s common block: the receives wrote nothing into it')

  ! ---- MPI_BOTTOM: a type of isc's absolute address, sent from MPI_BOTTOM
  call MPI_GET_ADDRESS(isc, a1, ierr)
  call MPI_TYPE_CREATE_STRUCT(1, (/ 1 /), (/ a1 /), (/ MPI_INTEGER /), btype, ierr)
  call MPI_TYPE_COMMIT(btype, ierr)
  risc = -1
  call MPI_SENDRECV(MPI_BOTTOM, 1, btype, peer, 8, risc, 1, MPI_INTEGER, peer, 8, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mt_is_int(risc, peer + 41, 'MPI_SENDRECV from MPI_BOTTOM with an absolute address')
  call MPI_TYPE_FREE(btype, ierr)

  ! ---- MPI_ISEND / MPI_IRECV, MPI_WAITALL with MPI_STATUSES_IGNORE
  ra = -1
  call MPI_IRECV(ra, 4, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, req(1), ierr)
  call MPI_ISEND(ia, 4, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, req(2), ierr)
  call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(req == MPI_REQUEST_NULL), &
             'MPI_WAITALL(2, requests, MPI_STATUSES_IGNORE): both requests MPI_REQUEST_NULL')
  call mt_ok(ra(1) == peer * 10 + 1 .and. ra(4) == peer * 10 + 4 .and. all(MPI_STATUSES_IGNORE == 0), &
             'MPI_IRECV: the values; MPI_STATUSES_IGNORE untouched')

  ! ---- a CHARACTER string
  cs = 'rank ' // achar(48 + rank)
  cr = '??????'
  call MPI_SENDRECV(cs, 6, MPI_CHARACTER, peer, 6, cr, 6, MPI_CHARACTER, peer, 6, &
                    MPI_COMM_WORLD, st, ierr)
  call mt_ok(cr == 'rank ' // achar(48 + peer), 'MPI_SENDRECV of a CHARACTER(LEN=6): the string')
  call MPI_GET_COUNT(st, MPI_CHARACTER, n, ierr)
  call mt_is_int(n, 6, 'MPI_GET_COUNT of the string: 6 characters')

  ! ---- MPI_ALLREDUCE with MPI_IN_PLACE
  isum(1) = rank + 1
  isum(2) = 10 * (rank + 1)
  isum(3) = 100
  call MPI_ALLREDUCE(MPI_IN_PLACE, isum, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ALLREDUCE(MPI_IN_PLACE, ...)')
  call mt_ok(isum(1) == 3 .and. isum(2) == 30 .and. isum(3) == 200, &
             'MPI_ALLREDUCE with MPI_IN_PLACE: 3, 30, 200')

  ! ---- MPI_SIZEOF: one generic, each intrinsic type, scalars and arrays
  call MPI_SIZEOF(isc, n, ierr)
  call mt_is_int(n, 4, 'MPI_SIZEOF(INTEGER) = 4')
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_SIZEOF: ierror MPI_SUCCESS')
  call MPI_SIZEOF(ia, n, ierr)
  call mt_is_int(n, 4, 'MPI_SIZEOF(INTEGER array) = 4')
  call MPI_SIZEOF(i1, n, ierr)
  call mt_is_int(n, 1, 'MPI_SIZEOF(INTEGER(1)) = 1')
  call MPI_SIZEOF(i2, n, ierr)
  call mt_is_int(n, 2, 'MPI_SIZEOF(INTEGER(2) array) = 2')
  call MPI_SIZEOF(i8, n, ierr)
  call mt_is_int(n, 8, 'MPI_SIZEOF(INTEGER(8) 2-D array) = 8')
  call MPI_SIZEOF(r4, n, ierr)
  call mt_is_int(n, 4, 'MPI_SIZEOF(REAL(4)) = 4')
  call MPI_SIZEOF(d2, n, ierr)
  call mt_is_int(n, 8, 'MPI_SIZEOF(REAL(8) 2-D array) = 8')
  call MPI_SIZEOF(r16, n, ierr)
  call mt_is_int(n, 16, 'MPI_SIZEOF(REAL(16) array) = 16')
  call MPI_SIZEOF(z4, n, ierr)
  call mt_is_int(n, 8, 'MPI_SIZEOF(COMPLEX(4)) = 8')
  call MPI_SIZEOF(z8, n, ierr)
  call mt_is_int(n, 16, 'MPI_SIZEOF(COMPLEX(8) array) = 16')
  call MPI_SIZEOF(z16, n, ierr)
  call mt_is_int(n, 32, 'MPI_SIZEOF(COMPLEX(16)) = 32')
  call MPI_SIZEOF(l4, n, ierr)
  call mt_is_int(n, 4, 'MPI_SIZEOF(LOGICAL) = 4')
  call MPI_SIZEOF(l1, n, ierr)
  call mt_is_int(n, 1, 'MPI_SIZEOF(LOGICAL(1) array) = 1')
  call MPI_SIZEOF(cs, n, ierr)
  call mt_is_int(n, 6, 'MPI_SIZEOF(CHARACTER(LEN=6)) = 6')
  call PMPI_SIZEOF(d2(1, 1), n, ierr)
  call mt_is_int(n, 8, 'PMPI_SIZEOF(REAL(8)) = 8')

  ! ---- address-kind arguments: columns 1 and 3 of d2 as one struct type
  call MPI_GET_ADDRESS(d2(1, 1), a1, ierr)
  call MPI_GET_ADDRESS(d2(1, 3), a2, ierr)
  call mt_ok(MPI_AINT_DIFF(a2, a1) == 32_MPI_ADDRESS_KIND, &
             'MPI_GET_ADDRESS, MPI_AINT_DIFF: d2(1, 3) is 32 bytes past d2(1, 1)')
  bl = 2
  disp(1) = 0
  disp(2) = MPI_AINT_DIFF(a2, a1)
  types = MPI_DOUBLE_PRECISION
  call MPI_TYPE_CREATE_STRUCT(2, bl, disp, types, stype, ierr)
  call MPI_TYPE_COMMIT(stype, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_TYPE_CREATE_STRUCT with INTEGER(KIND=MPI_ADDRESS_KIND) displacements')
  call MPI_TYPE_GET_EXTENT(stype, lb, ext, ierr)
  call mt_ok(lb == 0 .and. ext == 48, 'MPI_TYPE_GET_EXTENT of the struct: lb 0, extent 48')
  rr = -1
  call MPI_SENDRECV(d2, 1, stype, peer, 7, rr, 4, MPI_DOUBLE_PRECISION, peer, 7, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call mt_ok(rr(1) == peer * 100 + 11.5d0 .and. rr(2) == peer * 100 + 21.5d0 .and. &
             rr(3) == peer * 100 + 13.5d0 .and. rr(4) == peer * 100 + 23.5d0, &
             'the struct type sends columns 1 and 3: the 4 values')
  call MPI_TYPE_FREE(stype, ierr)
  call mt_is_int(stype, MPI_DATATYPE_NULL, 'MPI_TYPE_FREE: the handle becomes MPI_DATATYPE_NULL')

  ! ---- MPI_F_SYNC_REG on an MPI_IRECV's buffer before MPI_WAIT (and after)
  ra = -1
  call MPI_IRECV(ra, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, req(1), ierr)
  call MPI_F_SYNC_REG(ra)
  call MPI_SEND(ia, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, ierr)
  call MPI_WAIT(req(1), MPI_STATUS_IGNORE, ierr)
  call MPI_F_SYNC_REG(ra)
  call PMPI_F_SYNC_REG(isc)
  call mt_ok(ra(1) == peer * 10 + 1 .and. ra(4) == peer * 10 + 4 .and. req(1) == MPI_REQUEST_NULL, &
             'MPI_F_SYNC_REG (and PMPI_F_SYNC_REG) around MPI_WAIT: the values received')

  ! ---- MPI_STATUS_F2F08, MPI_STATUS_F082F (TYPE(MPI_Status) from the
  ! module): MPI_RECV's status (source, tag, count) there and back, exactly
  call MPI_ISEND(ia, 3, MPI_INTEGER, peer, 12 + rank, MPI_COMM_WORLD, req(1), ierr)
  st = -7
  call MPI_RECV(ra, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
  call MPI_WAIT(req(1), MPI_STATUS_IGNORE, ierr)
  s08%MPI_SOURCE = -9
  s08%MPI_TAG = -9
  s08%MPI_ERROR = -9
  call MPI_STATUS_F2F08(st, s08, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. s08%MPI_SOURCE == peer .and. s08%MPI_TAG == 12 + peer .and. &
             s08%MPI_ERROR == st(MPI_ERROR), 'MPI_STATUS_F2F08 of MPI_RECV''s status: source, tag, error')
  st2 = -8
  call PMPI_STATUS_F082F(s08, st2, ierr)
  call MPI_GET_COUNT(st2, MPI_INTEGER, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(st2 == st) .and. n == 3, &
             'PMPI_STATUS_F082F back: the same array, MPI_GET_COUNT 3')
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_STATUS_F2F08(MPI_STATUS_IGNORE, s08, ierr)
  call MPI_ERROR_CLASS(ierr, n, j)
  call mt_ok(n == MPI_ERR_ARG .and. s08%MPI_TAG == 12 + peer .and. all(MPI_STATUS_IGNORE == 0), &
             'MPI_STATUS_F2F08(MPI_STATUS_IGNORE, ...): MPI_ERR_ARG, nothing written')
  call MPI_STATUS_F082F(s08, MPI_STATUS_IGNORE, ierr)
  call MPI_ERROR_CLASS(ierr, n, j)
  call mt_ok(n == MPI_ERR_ARG .and. all(MPI_STATUS_IGNORE == 0), &
             'MPI_STATUS_F082F(..., MPI_STATUS_IGNORE): MPI_ERR_ARG, MPI_STATUS_IGNORE untouched')
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

  ! ---- a PMPI_ name, functions and LOGICAL constants of the module
  n = -1
  call PMPI_COMM_RANK(MPI_COMM_WORLD, n, ierr)
  call mt_is_int(n, rank, 'PMPI_COMM_RANK: the rank')
  t = MPI_WTIME()
  call mt_ok(t > 0d0, 'MPI_WTIME() is a DOUBLE PRECISION function')
  call mt_ok(.not. MPI_SUBARRAYS_SUPPORTED .and. .not. MPI_ASYNC_PROTECTS_NONBLOCKING, &
             'MPI_SUBARRAYS_SUPPORTED and MPI_ASYNC_PROTECTS_NONBLOCKING are .FALSE.')
  call mt_is_int(MPI_ADDRESS_KIND, 8, 'MPI_ADDRESS_KIND = 8')

  call MPI_FINALIZE(ierr)
  call mt_done()
end program f90_mod
