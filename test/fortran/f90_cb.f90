! f90_cb.f90 - mpif.h, 2 ranks: Fortran-language callbacks
! (runtime/fortran/README.md, "Callbacks"): user operations written in
! Fortran (MPI_OP_CREATE, MPI_OP_FREE) called with the length and the
! datatype's Fortran handle by reference, commutative or not, on INTEGER
! and on a derived type; error handlers written in Fortran
! (MPI_COMM_CREATE_ERRHANDLER, MPI_WIN_CREATE_ERRHANDLER) called with the
! communicator's or window's Fortran handle and the error code; exact
! values. The program comes first: fortran.sh
! puts `use mpi` before the first `implicit none`.

program f90_cb
  implicit none
  include 'mpif.h'
  external cb_ab1, cb_cat, cb_cmul, cb_errh, cb_werrh
  integer :: ierr, rank, np, op, op2, op3, pair, i, dup, eh, weh, win, wbuf(4)
  integer :: eh_calls, eh_obj, eh_code, eh_class
  common /cb_eh/ eh_calls, eh_obj, eh_code, eh_class
  integer :: a(3), r(3), p(2, 2), q(2, 2)
  logical :: comm
  integer :: ncalls, lastlen, lasttype
  common /cb_seen/ ncalls, lastlen, lasttype

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call mt_init(rank)
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')

  ! ---- user operations
  ncalls = 0
  call MPI_OP_CREATE(cb_ab1, .true., op, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. op /= MPI_OP_NULL, 'MPI_OP_CREATE of a Fortran subroutine (commute .TRUE.)')
  call MPI_OP_COMMUTATIVE(op, comm, ierr)
  call mt_ok(comm, 'MPI_OP_COMMUTATIVE: .TRUE.')
  do i = 1, 3
    a(i) = 2 * rank + i   ! rank 0: 1 2 3, rank 1: 3 4 5
  end do
  r = -1
  call MPI_ALLREDUCE(a, r, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ALLREDUCE with the Fortran op')
  call mt_ok(r(1) == 4 .and. r(2) == 9 .and. r(3) == 16, 'MPI_ALLREDUCE: a*b+1 elementwise (4 9 16)')
  if (ncalls > 0) then
    call mt_ok(lastlen == 3 .and. lasttype == MPI_INTEGER, 'the op got len 3 and MPI_INTEGER by reference')
  else
    call mt_ok(.true., 'the op was called on the other rank')
  end if
  r = -1
  call MPI_REDUCE(a, r, 3, MPI_INTEGER, op, 1, MPI_COMM_WORLD, ierr)
  if (rank == 1) then
    call mt_ok(ierr == MPI_SUCCESS .and. r(1) == 4 .and. r(2) == 9 .and. r(3) == 16, 'MPI_REDUCE to rank 1: 4 9 16')
  else
    call mt_ok(ierr == MPI_SUCCESS .and. r(1) == -1, 'MPI_REDUCE: rank 0 receives nothing')
  end if
  ncalls = 0
  r = (/ 5, 6, 7 /)
  call MPI_REDUCE_LOCAL(a, r, 2, MPI_INTEGER, op, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ncalls == 1 .and. r(1) == 5 * (2 * rank + 1) + 1 .and. &
             r(2) == 6 * (2 * rank + 2) + 1 .and. r(3) == 7, 'MPI_REDUCE_LOCAL: the op called once, on 2 elements')
  call mt_ok(lastlen == 2 .and. lasttype == MPI_INTEGER, 'MPI_REDUCE_LOCAL: len 2, MPI_INTEGER')
  call MPI_OP_FREE(op, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. op == MPI_OP_NULL, 'MPI_OP_FREE: MPI_OP_NULL')

  ! not commutative: rank 0's operand first
  call MPI_OP_CREATE(cb_cat, .false., op2, ierr)
  call MPI_OP_COMMUTATIVE(op2, comm, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. comm, 'MPI_OP_CREATE with commute .FALSE.: MPI_OP_COMMUTATIVE .FALSE.')
  a(1) = 3 + 2 * rank   ! 3, 5
  a(2) = 7 - 6 * rank   ! 7, 1
  r = -1
  call MPI_ALLREDUCE(a, r, 2, MPI_INTEGER, op2, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. r(1) == 35 .and. r(2) == 71, 'MPI_ALLREDUCE, not commutative: 10*a0+a1 (35 71)')
  r = -1
  call MPI_REDUCE(a, r, 2, MPI_INTEGER, op2, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call mt_ok(ierr == MPI_SUCCESS .and. r(1) == 35 .and. r(2) == 71, 'MPI_REDUCE to rank 0, not commutative: 35 71')
  else
    call mt_ok(ierr == MPI_SUCCESS .and. r(1) == -1, 'MPI_REDUCE: rank 1 receives nothing')
  end if
  call MPI_OP_FREE(op2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. op2 == MPI_OP_NULL, 'MPI_OP_FREE of the second op')

  ! a derived type: pairs multiplied as complex numbers
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, pair, ierr)
  call MPI_TYPE_COMMIT(pair, ierr)
  call MPI_OP_CREATE(cb_cmul, .true., op3, ierr)
  if (rank == 0) then
    p = reshape((/ 1, 2, 3, -1 /), (/ 2, 2 /))   ! 1+2i, 3-i
  else
    p = reshape((/ 3, 4, 2, 5 /), (/ 2, 2 /))    ! 3+4i, 2+5i
  end if
  q = 0
  ncalls = 0
  call MPI_ALLREDUCE(p, q, 2, pair, op3, MPI_COMM_WORLD, ierr)
  ! (1+2i)(3+4i) = -5+10i, (3-i)(2+5i) = 11+13i
  call mt_ok(ierr == MPI_SUCCESS .and. q(1, 1) == -5 .and. q(2, 1) == 10 .and. q(1, 2) == 11 .and. &
             q(2, 2) == 13, 'MPI_ALLREDUCE on a derived type of pairs: (-5,10) (11,13)')
  if (ncalls > 0) then
    call mt_ok(lastlen == 2 .and. lasttype == pair, 'the op got len 2 and the derived type''s handle')
  else
    call mt_ok(.true., 'the pair op was called on the other rank')
  end if
  call MPI_OP_FREE(op3, ierr)
  call MPI_TYPE_FREE(pair, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. op3 == MPI_OP_NULL, 'MPI_OP_FREE, MPI_TYPE_FREE')

  ! ---- error handlers
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_CREATE_ERRHANDLER(cb_errh, eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, &
             'MPI_COMM_CREATE_ERRHANDLER of a Fortran subroutine')
  call MPI_COMM_SET_ERRHANDLER(dup, eh, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_COMM_SET_ERRHANDLER on a duplicate of MPI_COMM_WORLD')
  eh_calls = 0
  eh_obj = -1
  eh_code = -1
  eh_class = -1
  call MPI_SEND(a, 1, MPI_INTEGER, -5, 0, dup, ierr)
  call mt_is_int(ierr, MPI_ERR_RANK, 'MPI_SEND to rank -5 on it returns MPI_ERR_RANK')
  call mt_ok(eh_calls == 1 .and. eh_obj == dup .and. eh_class == MPI_ERR_RANK, &
             'the Fortran handler ran once, with the duplicate''s handle and class MPI_ERR_RANK')
  call MPI_COMM_CALL_ERRHANDLER(dup, MPI_ERR_OTHER, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh_calls == 2 .and. eh_obj == dup .and. eh_code == MPI_ERR_OTHER, &
             'MPI_COMM_CALL_ERRHANDLER: the handler ran with MPI_ERR_OTHER')
  call MPI_BARRIER(dup, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh_calls == 2, 'the program goes on (MPI_BARRIER on the duplicate)')
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh == MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_FREE: MPI_ERRHANDLER_NULL')
  call MPI_COMM_FREE(dup, ierr)

  wbuf = 0
  call MPI_WIN_CREATE(wbuf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_CREATE_ERRHANDLER(cb_werrh, weh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. weh /= MPI_ERRHANDLER_NULL, &
             'MPI_WIN_CREATE_ERRHANDLER of a Fortran subroutine')
  call MPI_WIN_SET_ERRHANDLER(win, weh, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WIN_SET_ERRHANDLER')
  eh_calls = 0
  eh_obj = -1
  eh_code = -1
  call MPI_WIN_CALL_ERRHANDLER(win, MPI_ERR_OTHER, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh_calls == 1 .and. eh_obj == win .and. eh_code == MPI_ERR_OTHER, &
             'MPI_WIN_CALL_ERRHANDLER: the Fortran handler ran with the window''s handle and MPI_ERR_OTHER')
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_PUT(a, 1, MPI_INTEGER, 5, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call mt_is_int(ierr, MPI_ERR_RANK, 'MPI_PUT to rank 5 returns MPI_ERR_RANK')
  call mt_ok(eh_calls == 2 .and. eh_obj == win .and. eh_class == MPI_ERR_RANK, &
             'the window''s Fortran handler ran with class MPI_ERR_RANK')
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_ERRHANDLER_FREE(weh, ierr)
  call MPI_WIN_FREE(win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL .and. weh == MPI_ERRHANDLER_NULL, &
             'MPI_ERRHANDLER_FREE, MPI_WIN_FREE')

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_cb

! inoutvec(i) = invec(i) * inoutvec(i) + 1 (commutative)
subroutine cb_ab1(invec, inoutvec, len, datatype)
  implicit none
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(len)
  integer, intent(inout) :: inoutvec(len)
  integer :: i, ncalls, lastlen, lasttype
  common /cb_seen/ ncalls, lastlen, lasttype
  do i = 1, len
    inoutvec(i) = invec(i) * inoutvec(i) + 1
  end do
  ncalls = ncalls + 1
  lastlen = len
  lasttype = datatype
end subroutine cb_ab1

! inoutvec(i) = 10 * invec(i) + inoutvec(i): the order shows
subroutine cb_cat(invec, inoutvec, len, datatype)
  implicit none
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(len)
  integer, intent(inout) :: inoutvec(len)
  integer :: i, ncalls, lastlen, lasttype
  common /cb_seen/ ncalls, lastlen, lasttype
  do i = 1, len
    inoutvec(i) = 10 * invec(i) + inoutvec(i)
  end do
  ncalls = ncalls + 1
  lastlen = len
  lasttype = datatype
end subroutine cb_cat

! complex-like products of integer pairs (a derived type of 2 INTEGERs):
! (a, b) * (c, d) = (ac - bd, ad + bc)
subroutine cb_cmul(invec, inoutvec, len, datatype)
  implicit none
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(2, len)
  integer, intent(inout) :: inoutvec(2, len)
  integer :: i, re, ncalls, lastlen, lasttype
  common /cb_seen/ ncalls, lastlen, lasttype
  do i = 1, len
    re = invec(1, i) * inoutvec(1, i) - invec(2, i) * inoutvec(2, i)
    inoutvec(2, i) = invec(1, i) * inoutvec(2, i) + invec(2, i) * inoutvec(1, i)
    inoutvec(1, i) = re
  end do
  ncalls = ncalls + 1
  lastlen = len
  lasttype = datatype
end subroutine cb_cmul

! error handlers: SUBROUTINE h(comm, errcode), h(win, errcode)
subroutine cb_errh(comm, errcode)
  implicit none
  integer :: comm, errcode
  integer :: eh_calls, eh_obj, eh_code, eh_class, ierr
  common /cb_eh/ eh_calls, eh_obj, eh_code, eh_class
  eh_calls = eh_calls + 1
  eh_obj = comm
  eh_code = errcode
  call MPI_ERROR_CLASS(errcode, eh_class, ierr)
end subroutine cb_errh

subroutine cb_werrh(win, errcode)
  implicit none
  integer :: win, errcode
  integer :: eh_calls, eh_obj, eh_code, eh_class, ierr
  common /cb_eh/ eh_calls, eh_obj, eh_code, eh_class
  eh_calls = eh_calls + 1
  eh_obj = win
  eh_code = errcode
  call MPI_ERROR_CLASS(errcode, eh_class, ierr)
end subroutine cb_werrh
