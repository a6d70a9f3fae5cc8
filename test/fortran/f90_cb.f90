! f90_cb.f90 - mpif.h, 2 ranks: Fortran-language callbacks
! (runtime/fortran/README.md, "Callbacks"): user operations written in
! Fortran (MPI_OP_CREATE, MPI_OP_FREE) called with the length and the
! datatype's Fortran handle by reference, commutative or not, on INTEGER
! and on a derived type; error handlers written in Fortran
! (MPI_COMM_CREATE_ERRHANDLER, MPI_WIN_CREATE_ERRHANDLER) called with the
! communicator's or window's Fortran handle and the error code;
! attributes (MPI_COMM_, MPI_TYPE_, MPI_WIN_ CREATE_KEYVAL, SET_ATTR,
! GET_ATTR, DELETE_ATTR, FREE_KEYVAL) with Fortran copy and delete
! functions and INTEGER(KIND=MPI_ADDRESS_KIND) values, the predefined
! callbacks and attributes; generalized requests (MPI_GREQUEST_START,
! MPI_GREQUEST_COMPLETE) with Fortran query, free and cancel functions
! (MPI_STATUS_SET_ELEMENTS, MPI_STATUS_SET_CANCELLED in query, an error
! from query in MPI_WAITALL); exact values. The program comes first: fortran.sh
! puts `use mpi` before the first `implicit none`.

program f90_cb
  implicit none
  include 'mpif.h'
  external cb_ab1, cb_cat, cb_cmul, cb_errh, cb_werrh, cb_copy, cb_del
  external cb_gquery, cb_gfree, cb_gcancel
  integer :: greq, greqs(2), gst(MPI_STATUS_SIZE), gsts(MPI_STATUS_SIZE, 2), gcount
  logical :: gflag
  integer(kind=8) :: gr_extra
  integer :: gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  common /cb_gr/ gr_extra, gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  integer :: kv, kv2, kv3, dup2, t3
  integer(kind=MPI_ADDRESS_KIND) :: val, got, extra, wbase
  logical :: found, found2
  integer(kind=8) :: at_last, at_extra
  integer :: at_ncopy, at_ndel, at_obj
  common /cb_at/ at_last, at_extra, at_ncopy, at_ndel, at_obj
  integer :: ierr, rank, np, op, op2, op3, pair, i, dup, eh, weh, win, wbuf(4)
  integer :: eh_calls, eh_obj, eh_code, eh_class
  integer :: ucls, ucode, ulen, uclass, einfo, ebuf
  logical :: eflag
  character(len=200) :: eval
  character(len=MPI_MAX_ERROR_STRING) :: ustr
  common /cb_eh/ eh_calls, eh_obj, eh_code, eh_class
  integer :: a(3), r(3), p(2, 2), q(2, 2)
  logical :: comm
  integer :: ncalls, lastlen, lasttype
  common /cb_seen/ ncalls, lastlen, lasttype

  call mt_start(rank, np)
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

  ! ---- window attributes: the predefined ones give their values
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got == 16, 'MPI_WIN_GET_ATTR(MPI_WIN_SIZE): 16')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, got, found, ierr)
  call mt_ok(found .and. got == 4, 'MPI_WIN_GET_ATTR(MPI_WIN_DISP_UNIT): 4')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_CREATE_FLAVOR, got, found, ierr)
  call mt_ok(found .and. got == MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_GET_ATTR(MPI_WIN_CREATE_FLAVOR): MPI_WIN_FLAVOR_CREATE')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_MODEL, got, found, ierr)
  call mt_ok(found .and. got == MPI_WIN_UNIFIED, 'MPI_WIN_GET_ATTR(MPI_WIN_MODEL): MPI_WIN_UNIFIED')
  call MPI_GET_ADDRESS(wbuf, wbase, ierr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, got, found, ierr)
  call mt_ok(found .and. got == wbase, 'MPI_WIN_GET_ATTR(MPI_WIN_BASE): the buffer''s address')
  at_ndel = 0
  extra = 9
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, cb_del, kv, extra, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv /= MPI_KEYVAL_INVALID, 'MPI_WIN_CREATE_KEYVAL (Fortran delete function)')
  val = -3_MPI_ADDRESS_KIND
  call MPI_WIN_SET_ATTR(win, kv, val, ierr)
  got = 0
  call MPI_WIN_GET_ATTR(win, kv, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got == -3, 'MPI_WIN_SET_ATTR, MPI_WIN_GET_ATTR: -3')
  call MPI_WIN_DELETE_ATTR(win, kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 1 .and. at_last == -3 .and. at_extra == 9 .and. at_obj == win, &
             'MPI_WIN_DELETE_ATTR: the delete function ran with the window, -3 and extra state 9')
  call MPI_WIN_GET_ATTR(win, kv, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. found, 'MPI_WIN_GET_ATTR after the delete: flag .FALSE.')
  call MPI_WIN_SET_ATTR(win, kv, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_FREE_KEYVAL(kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv == MPI_KEYVAL_INVALID, 'MPI_WIN_FREE_KEYVAL: MPI_KEYVAL_INVALID')
  call MPI_ERRHANDLER_FREE(weh, ierr)
  call MPI_WIN_FREE(win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL .and. weh == MPI_ERRHANDLER_NULL, &
             'MPI_ERRHANDLER_FREE, MPI_WIN_FREE')
  call mt_ok(at_ndel == 2 .and. at_last == 5, 'MPI_WIN_FREE ran the delete function on the attribute left (5)')

  ! ---- communicator attributes: a Fortran copy function that doubles
  at_ncopy = 0
  at_ndel = 0
  extra = 77
  call MPI_COMM_CREATE_KEYVAL(cb_copy, cb_del, kv, extra, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv /= MPI_KEYVAL_INVALID, 'MPI_COMM_CREATE_KEYVAL (Fortran functions)')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  val = 2_MPI_ADDRESS_KIND**40 + 21 + rank
  call MPI_COMM_SET_ATTR(dup, kv, val, ierr)
  got = 0
  call MPI_COMM_GET_ATTR(dup, kv, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got == val, 'MPI_COMM_SET_ATTR, MPI_COMM_GET_ATTR: 2**40+21+rank')
  call MPI_COMM_DUP(dup, dup2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ncopy == 1 .and. at_obj == dup .and. at_extra == 77, &
             'MPI_COMM_DUP ran the copy function once, with the old communicator and extra state 77')
  got = 0
  call MPI_COMM_GET_ATTR(dup2, kv, got, found, ierr)
  call mt_ok(found .and. got == 2 * val, 'the duplicate''s attribute: doubled (flag .TRUE.)')
  call MPI_COMM_FREE(dup2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 1 .and. at_last == 2 * val, &
             'MPI_COMM_FREE ran the delete function on the doubled value')
  call MPI_COMM_DELETE_ATTR(dup, kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 2 .and. at_last == val .and. at_obj == dup, &
             'MPI_COMM_DELETE_ATTR ran it with the communicator and the value')
  call MPI_COMM_GET_ATTR(dup, kv, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. found, 'MPI_COMM_GET_ATTR after the delete: flag .FALSE.')
  call MPI_COMM_SET_ATTR(dup, kv, 8_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_FREE_KEYVAL(kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv == MPI_KEYVAL_INVALID, 'MPI_COMM_FREE_KEYVAL: MPI_KEYVAL_INVALID')
  call MPI_COMM_FREE(dup, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 3 .and. at_last == 8, &
             'MPI_COMM_FREE: the attribute left deleted (the freed keyval lives on until then)')

  ! the predefined callbacks
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv2, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv3, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_SET_ATTR(dup, kv2, 1234567_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(dup, kv3, 6_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_DUP(dup, dup2, ierr)
  got = 0
  call MPI_COMM_GET_ATTR(dup2, kv2, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got == 1234567, 'MPI_COMM_DUP_FN: copied unchanged')
  call MPI_COMM_GET_ATTR(dup2, kv3, got, found2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. found2, 'MPI_COMM_NULL_COPY_FN: not copied')
  call MPI_COMM_FREE(dup2, ierr)
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_FREE_KEYVAL(kv2, ierr)
  call MPI_COMM_FREE_KEYVAL(kv3, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv2 == MPI_KEYVAL_INVALID .and. kv3 == MPI_KEYVAL_INVALID, &
             'MPI_COMM_FREE, MPI_COMM_FREE_KEYVAL')

  ! the predefined attributes give their values
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got >= 32767, 'MPI_COMM_GET_ATTR(MPI_TAG_UB) >= 32767')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, got, found, ierr)
  call mt_ok(found .and. got == 0, 'MPI_WTIME_IS_GLOBAL: 0')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_APPNUM, got, found, ierr)
  call mt_ok(found .and. got == 0, 'MPI_APPNUM: 0')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, got, found, ierr)
  call mt_ok(found .and. got == np, 'MPI_UNIVERSE_SIZE: the job size')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_LASTUSEDCODE, got, found, ierr)
  call mt_ok(found .and. got == MPI_ERR_LASTCODE, 'MPI_LASTUSEDCODE: MPI_ERR_LASTCODE')

  ! ---- an error class, code and string of the program's
  call MPI_ADD_ERROR_CLASS(ucls, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ucls == MPI_ERR_LASTCODE + 1, 'MPI_ADD_ERROR_CLASS: MPI_ERR_LASTCODE + 1')
  call MPI_ADD_ERROR_CODE(ucls, ucode, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ucode == ucls + 1, 'MPI_ADD_ERROR_CODE: the next value')
  call MPI_ADD_ERROR_STRING(ucode, 'pump failure   ', ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_ADD_ERROR_STRING')
  call MPI_ERROR_STRING(ucode, ustr, ulen, ierr)
  call mt_ok(ustr == 'pump failure' .and. ulen == 12, 'MPI_ERROR_STRING: the string without its trailing blanks')
  call MPI_ERROR_CLASS(ucode, uclass, ierr)
  call mt_is_int(uclass, ucls, 'MPI_ERROR_CLASS of the code: the class')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_LASTUSEDCODE, got, found, ierr)
  call mt_ok(found .and. got == ucode, 'MPI_LASTUSEDCODE: the code')
  call MPI_REMOVE_ERROR_STRING(ucode, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REMOVE_ERROR_STRING')
  call MPI_REMOVE_ERROR_CODE(ucode, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REMOVE_ERROR_CODE')
  call MPI_REMOVE_ERROR_CLASS(ucls, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REMOVE_ERROR_CLASS')
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_LASTUSEDCODE, got, found, ierr)
  call mt_ok(found .and. got == MPI_ERR_LASTCODE, 'MPI_LASTUSEDCODE: MPI_ERR_LASTCODE again')

  ! ---- MPI_PCONTROL, MPI_INFO_CREATE_ENV, MPI_INFO_GET_STRING
  call MPI_PCONTROL(1, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_PCONTROL(1)')
  call MPI_INFO_CREATE_ENV(einfo, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_INFO_CREATE_ENV')
  ebuf = len(eval)
  call MPI_INFO_GET_STRING(einfo, 'command', ebuf, eval, eflag, ierr)
  call mt_ok(eflag .and. index(eval, 'f90_cb') > 0 .and. ebuf == len_trim(eval) + 1, &
             'MPI_INFO_GET_STRING: command names this program, buflen its length + 1')
  ebuf = 3
  call MPI_INFO_GET_STRING(einfo, 'maxprocs', ebuf, eval, eflag, ierr)
  call mt_ok(eflag .and. ebuf == len_trim(eval) + 1, 'MPI_INFO_GET_STRING: maxprocs')
  call MPI_INFO_FREE(einfo, ierr)

  ! ---- datatype attributes: the same copy and delete functions
  at_ncopy = 0
  at_ndel = 0
  call MPI_TYPE_CREATE_KEYVAL(cb_copy, cb_del, kv, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_CONTIGUOUS(3, MPI_INTEGER, pair, ierr)
  call MPI_TYPE_SET_ATTR(pair, kv, 50_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_DUP(pair, t3, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ncopy == 1 .and. at_obj == pair .and. at_extra == 5, &
             'MPI_TYPE_DUP ran the copy function with the old type and extra state 5')
  call MPI_TYPE_GET_ATTR(t3, kv, got, found, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. found .and. got == 100, 'MPI_TYPE_GET_ATTR of the duplicate: 100')
  call MPI_TYPE_DELETE_ATTR(pair, kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 1 .and. at_last == 50, 'MPI_TYPE_DELETE_ATTR: deleted 50')
  call MPI_TYPE_FREE(t3, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. at_ndel == 2 .and. at_last == 100, 'MPI_TYPE_FREE: deleted 100')
  call MPI_TYPE_FREE(pair, ierr)
  call MPI_TYPE_FREE_KEYVAL(kv, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. kv == MPI_KEYVAL_INVALID, 'MPI_TYPE_FREE_KEYVAL')

  ! ---- generalized requests: query, free and cancel written in Fortran
  gr_nquery = 0
  gr_nfree = 0
  gr_ncancel = 0
  gr_complete = -1
  gr_cancelled = 0
  call MPI_GREQUEST_START(cb_gquery, cb_gfree, cb_gcancel, 7_MPI_ADDRESS_KIND, greq, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. greq /= MPI_REQUEST_NULL, 'MPI_GREQUEST_START of Fortran subroutines')
  call MPI_CANCEL(greq, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gr_ncancel == 1 .and. gr_complete == 0 .and. gr_extra == 7, &
             'MPI_CANCEL: cancel called with extra state 7 and COMPLETE .FALSE.')
  call MPI_TEST(greq, gflag, gst, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. .not. gflag .and. gr_nquery == 0, 'MPI_TEST before complete: .FALSE.')
  call MPI_GREQUEST_COMPLETE(greq, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_GREQUEST_COMPLETE')
  gst = -1
  call MPI_REQUEST_GET_STATUS(greq, gflag, gst, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gflag .and. gr_nquery == 1 .and. gr_nfree == 0 .and. &
             gst(MPI_TAG) == 14 .and. gst(MPI_SOURCE) == 3, &
             'MPI_REQUEST_GET_STATUS: query filled source 3, tag 14; no free')
  call MPI_CANCEL(greq, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gr_ncancel == 2 .and. gr_complete == 1, &
             'MPI_CANCEL after complete: COMPLETE .TRUE.')
  gst = -1
  call MPI_WAIT(greq, gst, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. greq == MPI_REQUEST_NULL .and. gr_nquery == 2 .and. gr_nfree == 1, &
             'MPI_WAIT: query again, free once, MPI_REQUEST_NULL')
  call MPI_GET_COUNT(gst, MPI_INTEGER, gcount, ierr)
  call mt_is_int(gcount, 4, 'MPI_GET_COUNT of the status from MPI_STATUS_SET_ELEMENTS in query')
  call MPI_TEST_CANCELLED(gst, gflag, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gflag, 'MPI_TEST_CANCELLED: .TRUE. from MPI_STATUS_SET_CANCELLED in query')
  ! an error from query (extra state 99) in MPI_WAITALL
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  gr_nfree = 0
  gr_cancelled = 0
  call MPI_GREQUEST_START(cb_gquery, cb_gfree, cb_gcancel, 8_MPI_ADDRESS_KIND, greqs(1), ierr)
  call MPI_GREQUEST_START(cb_gquery, cb_gfree, cb_gcancel, 99_MPI_ADDRESS_KIND, greqs(2), ierr)
  call MPI_GREQUEST_COMPLETE(greqs(2), ierr)
  call MPI_GREQUEST_COMPLETE(greqs(1), ierr)
  gsts = -1
  call MPI_WAITALL(2, greqs, gsts, ierr)
  call mt_is_int(ierr, MPI_ERR_IN_STATUS, 'MPI_WAITALL: MPI_ERR_IN_STATUS')
  call mt_ok(gsts(MPI_ERROR, 1) == MPI_SUCCESS .and. gsts(MPI_ERROR, 2) == MPI_ERR_OTHER .and. &
             gsts(MPI_TAG, 1) == 16 .and. gsts(MPI_TAG, 2) == 198, &
             'MPI_WAITALL: statuses tags 16, 198 and errors MPI_SUCCESS, MPI_ERR_OTHER from query')
  call mt_ok(gr_nfree == 2 .and. greqs(1) == MPI_REQUEST_NULL .and. greqs(2) == MPI_REQUEST_NULL, &
             'MPI_WAITALL: free called for both, both MPI_REQUEST_NULL')
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

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

! attribute callbacks (kind=8: MPI_ADDRESS_KIND; these subroutines see
! neither mpif.h nor the module)
subroutine cb_copy(oldobj, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
  implicit none
  integer :: oldobj, keyval, ierror
  integer(kind=8) :: extra_state, attribute_val_in, attribute_val_out
  logical :: flag
  integer(kind=8) :: at_last, at_extra
  integer :: at_ncopy, at_ndel, at_obj
  common /cb_at/ at_last, at_extra, at_ncopy, at_ndel, at_obj
  at_ncopy = at_ncopy + 1
  at_obj = oldobj
  at_extra = extra_state
  attribute_val_out = 2 * attribute_val_in
  flag = .true.
  ierror = 0
  if (keyval < 0) ierror = 1
end subroutine cb_copy

subroutine cb_del(obj, keyval, attribute_val, extra_state, ierror)
  implicit none
  integer :: obj, keyval, ierror
  integer(kind=8) :: attribute_val, extra_state
  integer(kind=8) :: at_last, at_extra
  integer :: at_ncopy, at_ndel, at_obj
  common /cb_at/ at_last, at_extra, at_ncopy, at_ndel, at_obj
  at_ndel = at_ndel + 1
  at_obj = obj
  at_last = attribute_val
  at_extra = extra_state
  ierror = 0
  if (keyval < 0) ierror = 1
end subroutine cb_del

! generalized request callbacks (kind=8: MPI_ADDRESS_KIND); query uses
! the mpi module for the status' size and the constants (fortran.sh
! removes the mpif.h lines when it makes the program a `use mpi` one)
subroutine cb_gquery(extra_state, status, ierror)
  use mpi
  implicit none
  integer(kind=8) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierror, ierr
  integer(kind=8) :: gr_extra
  integer :: gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  common /cb_gr/ gr_extra, gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  gr_nquery = gr_nquery + 1
  status(MPI_SOURCE) = 3
  status(MPI_TAG) = 2 * int(extra_state)
  call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, 4, ierr)
  call MPI_STATUS_SET_CANCELLED(status, gr_cancelled == 1, ierr)
  ierror = MPI_SUCCESS
  if (extra_state == 99) ierror = MPI_ERR_OTHER
end subroutine cb_gquery

subroutine cb_gfree(extra_state, ierror)
  implicit none
  integer(kind=8) :: extra_state
  integer :: ierror
  integer(kind=8) :: gr_extra
  integer :: gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  common /cb_gr/ gr_extra, gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  gr_nfree = gr_nfree + 1
  gr_extra = extra_state
  ierror = 0
end subroutine cb_gfree

subroutine cb_gcancel(extra_state, complete, ierror)
  implicit none
  integer(kind=8) :: extra_state
  logical :: complete
  integer :: ierror
  integer(kind=8) :: gr_extra
  integer :: gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  common /cb_gr/ gr_extra, gr_nquery, gr_nfree, gr_ncancel, gr_complete, gr_cancelled
  gr_ncancel = gr_ncancel + 1
  gr_extra = extra_state
  gr_complete = 0
  if (complete) gr_complete = 1
  if (.not. complete) gr_cancelled = 1
  ierror = 0
end subroutine cb_gcancel
