! f08.f90 - the mpi_f08 module (use mpi_f08, and pmpi_f08), 2 ranks:
! ierror absent and present; == and /= on handles (MPI_COMM_NULL,
! MPI_REQUEST_NULL after completion, MPI_Comm_idup's new communicator
! ...); TYPE(MPI_Status)'s components
! after MPI_Recv and MPI_Probe; non-contiguous array sections (a(1:n:2),
! b(2, :) of a 2-D array, a 2-D section, a reversed one, part of a
! section) in MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv + MPI_Wait,
! MPI_Bcast and MPI_Put; sections MPI_ERR_BUFFER refuses (element size
! not the datatype's, count beyond the section, a nonblocking reduction's
! shared count) under MPI_ERRORS_RETURN, with the message in
! MPI_Error_string; blocking MPI_Allreduce of sections (contiguous copies,
! MPI_IN_PLACE too);
! MPI_Bcast, MPI_Allreduce of LOGICALs with MPI_LAND, MPI_Reduce with
! MPI_IN_PLACE; an f08 user operation, error handler and attribute
! copy/delete callbacks, MPI_COMM_DUP_FN; strings (processor name, error
! string, communicator name, MPI_Pack_external's datarep beside its
! buffers); MPI_Sizeof; MPI_Bsend and MPI_Buffer_detach's TYPE(C_PTR);
! MPI_Type_vector; MPI_Win_allocate
! with MPI_Put and fences; MPI_F_sync_reg around MPI_Wait; MPI_Recv's
! status through MPI_Status_f082f and MPI_Status_f2f08 and back;
! MPI_Wtime; a PMPI_ name; a session (process sets, a communicator
! from a group, an f08 session error handler). Exact values.
module f08_cb
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  use mpi_f08
  implicit none
  integer :: op_calls = 0, op_len = -1, eh_calls = 0, eh_code = -1
  integer :: copies = 0, deletes = 0, ses_calls = 0, ses_code = -1
  logical :: ses_null = .true.
  integer :: gq_calls = 0, gf_calls = 0, gc_calls = 0
  logical :: gc_complete = .true.
  integer(kind=MPI_ADDRESS_KIND) :: last_deleted = -1, seen_extra = -1
  type(MPI_Datatype) :: op_type
  type(MPI_Comm) :: eh_comm
contains
  ! inoutvec(i) = inoutvec(i) + invec(i), INTEGER
  subroutine my_sum(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = b + a
    op_calls = op_calls + 1
    op_len = len
    op_type = datatype
  end subroutine my_sum

  subroutine my_handler(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    eh_calls = eh_calls + 1
    eh_comm = comm
    eh_code = error_code
  end subroutine my_handler

  subroutine my_session_handler(session, error_code)
    type(MPI_Session) :: session
    integer :: error_code
    ses_calls = ses_calls + 1
    ses_code = error_code
    ses_null = session == MPI_SESSION_NULL
  end subroutine my_session_handler

  ! the copy doubles the value
  subroutine my_copy(oldcomm, comm_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    seen_extra = extra_state
    attribute_val_out = 2 * attribute_val_in
    flag = .true.
    ierror = MPI_SUCCESS
    if (oldcomm == MPI_COMM_NULL .or. comm_keyval < 0) ierror = MPI_ERR_OTHER
  end subroutine my_copy

  subroutine my_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    last_deleted = attribute_val
    ierror = MPI_SUCCESS
    if (comm == MPI_COMM_NULL .or. comm_keyval < 0 .or. extra_state /= 7) ierror = MPI_ERR_OTHER
  end subroutine my_delete
  ! generalized request callbacks (the _f08 abstract interfaces)
  subroutine my_gquery(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    gq_calls = gq_calls + 1
    status%MPI_SOURCE = 5
    status%MPI_TAG = int(extra_state)
    call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierror)
    if (ierror == MPI_SUCCESS) call MPI_Status_set_cancelled(status, .false., ierror)
  end subroutine my_gquery
  subroutine my_gfree(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    gf_calls = gf_calls + 1
    ierror = MPI_SUCCESS
    if (extra_state /= 21) ierror = MPI_ERR_OTHER
  end subroutine my_gfree
  subroutine my_gcancel(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    gc_calls = gc_calls + 1
    gc_complete = complete
    ierror = MPI_SUCCESS
    if (extra_state /= 21) ierror = MPI_ERR_OTHER
  end subroutine my_gcancel
end module f08_cb

program f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer, c_loc, c_associated
  use mpi_f08
  use pmpi_f08, only : PMPI_Comm_rank, PMPI_F_sync_reg, PMPI_Status_f082f
  use f08_cb
  implicit none
  integer :: ierr, rank, np, peer, i, j, n, nbad, prank, sz, keyval, key2, rlen
  integer :: ia(4), m(3, 4), r(3, 4), iv(6), ir(3), big(10), fst(MPI_STATUS_SIZE), fst2(MPI_STATUS_SIZE)
  double precision :: a(10), b(10), t1, t2
  real :: rs(4)
  complex :: z
  logical :: l, lres, flag
  character(len=5) :: c5
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname, host
  character(len=MPI_MAX_ERROR_STRING) :: estr
  character(len=MPI_MAX_OBJECT_NAME) :: cname
  type(MPI_Comm) :: dup, dup2, c
  type(MPI_Status) :: st, sts(2), st2
  type(MPI_Request) :: req, reqs(2)
  type(MPI_Op) :: op
  type(MPI_Errhandler) :: eh
  type(MPI_Datatype) :: vt
  type(MPI_Win) :: win
  type(c_ptr) :: base
  integer, pointer :: wbuf(:)
  integer(kind=MPI_ADDRESS_KIND) :: val, pos
  character(len=1) :: pbuf(64)
  integer, target :: bbuf(100)
  type(c_ptr) :: bp
  type(MPI_Session) :: ses
  type(MPI_Group) :: sgrp
  type(MPI_Comm) :: scomm
  type(MPI_Errhandler) :: seh
  character(len=MPI_MAX_PSET_NAME_LEN) :: psname
  integer :: plen, npsets, ssum, srank

  ! ---- ierror absent and present
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call mt_init(rank)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Comm_size with ierror')
  call mt_is_int(np, 2, 'MPI_Comm_size without ierror before it: 2 ranks')
  peer = 1 - rank
  call PMPI_Comm_rank(MPI_COMM_WORLD, prank, ierr)
  call mt_is_int(prank, rank, 'PMPI_Comm_rank (pmpi_f08) gives MPI_Comm_rank''s rank')
  call MPI_Initialized(flag)
  call mt_ok(flag, 'MPI_Initialized: .TRUE. (LOGICAL out, no ierror)')

  ! ---- constants and types
  call mt_ok(MPI_SUBARRAYS_SUPPORTED, 'MPI_SUBARRAYS_SUPPORTED is .TRUE. in mpi_f08')
  call mt_ok(.not. MPI_ASYNC_PROTECTS_NONBLOCKING, 'MPI_ASYNC_PROTECTS_NONBLOCKING is .FALSE.')
  call mt_is_int(storage_size(st) / 8, 4 * MPI_STATUS_SIZE, 'TYPE(MPI_Status) holds MPI_STATUS_SIZE INTEGERs')
  call mt_is_int(MPI_COMM_WORLD%MPI_VAL, 16777217, 'MPI_COMM_WORLD%MPI_VAL is mpif.h''s MPI_COMM_WORLD')

  ! ---- == and /=
  call mt_ok(MPI_COMM_WORLD == MPI_COMM_WORLD .and. .not. (MPI_COMM_WORLD /= MPI_COMM_WORLD), &
             'MPI_COMM_WORLD == MPI_COMM_WORLD')
  call mt_ok(MPI_COMM_WORLD /= MPI_COMM_SELF .and. .not. (MPI_COMM_WORLD == MPI_COMM_SELF), &
             'MPI_COMM_WORLD /= MPI_COMM_SELF')
  call mt_ok(MPI_INTEGER /= MPI_REAL .and. MPI_SUM == MPI_SUM .and. MPI_REQUEST_NULL == MPI_REQUEST_NULL, &
             '== and /= on datatypes, operations, requests')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. dup /= MPI_COMM_WORLD .and. dup /= MPI_COMM_NULL, &
             'MPI_Comm_dup: a new communicator, not MPI_COMM_NULL')
  c = dup
  call mt_ok(c == dup, 'a copy of a handle compares equal')
  call MPI_Comm_idup(MPI_COMM_WORLD, dup2, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Allreduce(rank + 1, n, 1, MPI_INTEGER, MPI_SUM, dup2)
  call mt_ok(dup2 /= MPI_COMM_NULL .and. dup2 /= MPI_COMM_WORLD .and. req == MPI_REQUEST_NULL .and. n == 3, &
             'MPI_Comm_idup (ASYNCHRONOUS newcomm), MPI_Wait, MPI_Allreduce on the new communicator')
  call MPI_Comm_free(dup2)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)

  ! ---- statuses: MPI_Recv, MPI_Probe (rank 0 sends, rank 1 receives)
  if (rank == 0) then
    ia = [11, 12, 13, 14]
    call MPI_Send(ia, 4, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
    call MPI_Send(ia(1:3), 3, MPI_INTEGER, 1, 6, MPI_COMM_WORLD, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Send of a contiguous section with ierror')
  else
    ia = -1
    st%MPI_SOURCE = -9
    st%MPI_TAG = -9
    call MPI_Recv(ia, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st)
    call mt_ok(all(ia == [11, 12, 13, 14]), 'MPI_Recv: the 4 INTEGERs')
    call mt_is_int(st%MPI_SOURCE, 0, 'MPI_Recv: status%MPI_SOURCE')
    call mt_is_int(st%MPI_TAG, 5, 'MPI_Recv: status%MPI_TAG')
    call mt_is_int(st%MPI_ERROR, MPI_SUCCESS, 'MPI_Recv: status%MPI_ERROR')
    call MPI_Get_count(st, MPI_INTEGER, n)
    call mt_is_int(n, 4, 'MPI_Get_count: 4')
    call MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
    call mt_is_int(st%MPI_TAG, 6, 'MPI_Probe: status%MPI_TAG')
    call mt_is_int(st%MPI_SOURCE, 0, 'MPI_Probe: status%MPI_SOURCE')
    call MPI_Get_count(st, MPI_INTEGER, n, ierr)
    call mt_is_int(n, 3, 'MPI_Probe: MPI_Get_count 3')
    ia = -1
    call MPI_Recv(ia, 4, MPI_INTEGER, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call mt_ok(all(ia == [11, 12, 13, -1]), 'MPI_Recv with MPI_STATUS_IGNORE: 3 INTEGERs')
  end if

  ! ---- non-contiguous sections, blocking: each rank sends, then receives
  do i = 1, 10
    a(i) = 100 * rank + i
  end do
  do j = 1, 4
    do i = 1, 3
      m(i, j) = 1000 * rank + 10 * i + j
    end do
  end do
  b = 0
  r = 0
  do i = 0, 1
    if (rank == i) then
      call MPI_Send(a(1:10:2), 5, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD)
      call MPI_Send(m(2, :), 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, ierr)
      call MPI_Send(m(1:3:2, 2:4), 6, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, ierr)
      call MPI_Send(a(1:10:2), 3, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, ierr)
    else
      call MPI_Recv(b(2:10:2), 5, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, st)
      call MPI_Recv(r(1, :), 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end do
  nbad = 0
  do i = 1, 10
    if (mod(i, 2) == 0 .and. b(i) /= 100 * peer + i - 1) nbad = nbad + 1
    if (mod(i, 2) == 1 .and. b(i) /= 0) nbad = nbad + 1
  end do
  call mt_is_int(nbad, 0, 'MPI_Send of a(1:10:2) into MPI_Recv of b(2:10:2): the odd elements into the even')
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  call mt_is_int(n, 5, 'MPI_Get_count of the received section: 5')
  call mt_ok(all(r(1, :) == [(1000 * peer + 20 + j, j = 1, 4)]) .and. all(r(2:3, :) == 0), &
             'MPI_Send of m(2, :) into MPI_Recv of r(1, :): row to row, the other rows untouched')
  ! a 2-D section received whole into a contiguous buffer, and part of a
  ! section (3 of its 5 elements) received
  iv = 0
  call MPI_Recv(iv, 6, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, st, ierr)
  call mt_ok(all(iv == [1000 * peer + 12, 1000 * peer + 32, 1000 * peer + 13, 1000 * peer + 33, &
                        1000 * peer + 14, 1000 * peer + 34]), 'MPI_Send of m(1:3:2, 2:4): 6 elements in order')
  b = 0
  call MPI_Recv(b(10:1:-3), 4, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, st, ierr)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 3 .and. b(10) == 100 * peer + 1 .and. b(7) == 100 * peer + 3 &
             .and. b(4) == 100 * peer + 5 .and. b(1) == 0 .and. count(b /= 0) == 3, &
             'count 3 of a(1:10:2) into the reversed section b(10:1:-3): 3 elements, the 4th untouched')

  ! ---- non-contiguous sections, nonblocking
  b = 0
  r = 0
  call MPI_Irecv(b(1:10:3), 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, reqs(1))
  call MPI_Irecv(r(:, 3), 3, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Isend(a(2:10:2), 4, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, req)
  call MPI_Wait(req, st)
  call mt_ok(req == MPI_REQUEST_NULL, 'MPI_Wait: the request is MPI_REQUEST_NULL')
  call MPI_Isend(m(3, 2:4), 3, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Waitall(2, reqs, sts)
  call mt_ok(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, &
             'MPI_Waitall: both requests MPI_REQUEST_NULL')
  call mt_ok(b(1) == 100 * peer + 2 .and. b(4) == 100 * peer + 4 .and. b(7) == 100 * peer + 6 &
             .and. b(10) == 100 * peer + 8 .and. count(b /= 0) == 4, &
             'MPI_Isend of a(2:10:2) into MPI_Irecv of b(1:10:3)')
  call mt_ok(all(r(:, 3) == [(1000 * peer + 30 + j, j = 2, 4)]) .and. count(r /= 0) == 3, &
             'MPI_Isend of m(3, 2:4) into MPI_Irecv of r(:, 3)')
  call mt_ok(sts(1)%MPI_TAG == 7 .and. sts(2)%MPI_TAG == 8 .and. sts(2)%MPI_SOURCE == peer, &
             'MPI_Waitall: the statuses'' tags and source')

  ! ---- sections MPI_ERR_BUFFER refuses (MPI_ERRORS_RETURN)
  call MPI_Send(a(1:10:2), 5, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_ERR_BUFFER, 'MPI_Send of REAL(8) a(1:10:2) as MPI_INTEGER: MPI_ERR_BUFFER')
  call MPI_Error_string(ierr, estr, rlen)
  call mt_ok(index(estr, 'MPI_Send') > 0 .and. index(estr, '8-byte elements') > 0 .and. &
             index(estr, 'size is 4 bytes') > 0, 'MPI_Error_string names the call and the sizes')
  call mt_is_int(rlen, len_trim(estr), 'MPI_Error_string: resultlen')
  call MPI_Irecv(b(1:10:2), 6, MPI_DOUBLE_PRECISION, peer, 9, MPI_COMM_WORLD, req, ierr)
  call mt_ok(ierr == MPI_ERR_BUFFER .and. req == MPI_REQUEST_NULL, &
             'MPI_Irecv of count 6 into a 5-element section: MPI_ERR_BUFFER, no request')
  call MPI_Iallreduce(a(1:10:2), b(1:5), 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call mt_ok(ierr == MPI_ERR_BUFFER .and. req == MPI_REQUEST_NULL, &
             'MPI_Iallreduce of a section (a count shared by two buffers, nonblocking): MPI_ERR_BUFFER')
  call MPI_Error_string(ierr, estr, rlen)
  call mt_ok(index(estr, 'MPI_Iallreduce') > 0 .and. index(estr, 'sendbuf is a non-contiguous') > 0, &
             'MPI_Error_string names MPI_Iallreduce and sendbuf')

  ! ---- collectives
  big = 0
  if (rank == 0) big = [(i * 3, i = 1, 10)]
  call MPI_Bcast(big, 10, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call mt_ok(all(big == [(i * 3, i = 1, 10)]), 'MPI_Bcast of 10 INTEGERs from rank 0')
  r = 0
  if (rank == 1) r = m
  call MPI_Bcast(r(3, :), 4, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(r(3, :) == [(1000 + 30 + j, j = 1, 4)]), &
             'MPI_Bcast of the section r(3, :) from rank 1')
  l = .true.
  call MPI_Allreduce(l, lres, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. lres, 'MPI_Allreduce MPI_LAND of .TRUE. and .TRUE.: .TRUE.')
  l = rank == 0
  call MPI_Allreduce(l, lres, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call mt_ok(.not. lres, 'MPI_Allreduce MPI_LAND of .TRUE. and .FALSE.: .FALSE.')
  ir = [rank + 1, 10 * (rank + 1), 7]
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, ir, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call mt_ok(ierr == MPI_SUCCESS .and. all(ir == [3, 30, 14]), 'MPI_Reduce with MPI_IN_PLACE at the root')
  else
    call MPI_Reduce(ir, iv, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Reduce from rank 1')
  end if

  ! blocking calls whose buffers share a count take sections as contiguous
  ! copies (written back where the call writes)
  b = -1
  call MPI_Allreduce(a(1:10:2), b(2:10:2), 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(b(2:10:2) == [(100 + 2 * i, i = 1, 10, 2)]) &
             .and. all(b(1:9:2) == -1), 'MPI_Allreduce of a(1:10:2) into b(2:10:2): the sums, b(1:9:2) untouched')
  r = m
  call MPI_Allreduce(MPI_IN_PLACE, r(2, :), 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(r(2, :) == [(1000 + 2 * (20 + j), j = 1, 4)]) .and. &
             all(r(1, :) == m(1, :)) .and. all(r(3, :) == m(3, :)), 'MPI_Allreduce with MPI_IN_PLACE on r(2, :)')

  ! ---- an f08 user operation
  call MPI_Op_create(my_sum, .true., op, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. op /= MPI_OP_NULL, 'MPI_Op_create of an f08 procedure')
  ir = [rank + 1, 5, -rank]
  iv = 0
  call MPI_Allreduce(ir, iv, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
  call mt_ok(all(iv(1:3) == [3, 10, -1]), 'MPI_Allreduce with the f08 operation: the sums')
  call mt_ok(op_calls >= 1 .and. op_len == 3 .and. op_type == MPI_INTEGER, &
             'the operation got len 3 and TYPE(MPI_Datatype) MPI_INTEGER')
  call MPI_Op_free(op)
  call mt_ok(op == MPI_OP_NULL, 'MPI_Op_free: MPI_OP_NULL')

  ! ---- an f08 error handler
  call MPI_Comm_create_errhandler(my_handler, eh, ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI_Comm_create_errhandler, set on a duplicate')
  call MPI_Send(ia, 1, MPI_INTEGER, -5, 0, dup, ierr)
  call mt_is_int(ierr, MPI_ERR_RANK, 'MPI_Send to rank -5: MPI_ERR_RANK')
  call mt_ok(eh_calls == 1 .and. eh_comm == dup .and. eh_code == ierr, &
             'the f08 handler ran once with the communicator and the code')
  call MPI_Errhandler_free(eh)
  call mt_ok(eh == MPI_ERRHANDLER_NULL, 'MPI_Errhandler_free: MPI_ERRHANDLER_NULL')

  ! ---- attribute callbacks
  call MPI_Comm_create_keyval(my_copy, my_delete, keyval, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(dup, keyval, 21_MPI_ADDRESS_KIND, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Comm_create_keyval of f08 procedures, MPI_Comm_set_attr')
  call MPI_Comm_dup(dup, dup2)
  call MPI_Comm_get_attr(dup2, keyval, val, flag, ierr)
  call mt_ok(flag .and. val == 42 .and. copies == 1 .and. seen_extra == 7, &
             'MPI_Comm_dup: the f08 copy callback doubled the value (extra_state 7)')
  call MPI_Comm_free(dup2)
  call mt_ok(dup2 == MPI_COMM_NULL .and. deletes == 1 .and. last_deleted == 42, &
             'MPI_Comm_free: MPI_COMM_NULL, the delete callback got 42')
  call MPI_Comm_delete_attr(dup, keyval, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. deletes == 2 .and. last_deleted == 21, &
             'MPI_Comm_delete_attr: the delete callback got 21')
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, key2, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(dup, dup2)
  call MPI_Comm_get_attr(dup2, key2, val, flag)
  call mt_ok(flag .and. val == 5, 'MPI_COMM_DUP_FN copies the value to the duplicate')
  call MPI_Comm_free(dup2)
  call MPI_Comm_free_keyval(key2)

  ! ---- strings
  call get_environment_variable('RD_FTEST_HOST', host)
  call MPI_Get_processor_name(pname, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. pname == host .and. n == len_trim(host) .and. n > 0, &
             'MPI_Get_processor_name: the host name and its length')
  call MPI_Comm_set_name(dup, 'f08 comm  ')
  call MPI_Comm_get_name(dup, cname, n)
  call mt_ok(cname == 'f08 comm' .and. n == 8, 'MPI_Comm_set_name, MPI_Comm_get_name: trailing blanks dropped')
  c5 = '?????'
  call MPI_Comm_get_name(MPI_COMM_WORLD, c5, n, ierr)
  call mt_ok(c5 == 'MPI_C' .and. n == 14, 'MPI_Comm_get_name into CHARACTER(5): cut, resultlen 14')
  call MPI_Comm_free(dup)

  ! ---- MPI_Sizeof
  call MPI_Sizeof(n, sz)
  call mt_is_int(sz, 4, 'MPI_Sizeof(INTEGER): 4')
  call MPI_Sizeof(a, sz, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. sz == 8, 'MPI_Sizeof(DOUBLE PRECISION array): 8')
  call MPI_Sizeof(rs, sz)
  call mt_is_int(sz, 4, 'MPI_Sizeof(REAL array): 4')
  call MPI_Sizeof(z, sz)
  call mt_is_int(sz, 8, 'MPI_Sizeof(COMPLEX): 8')
  call MPI_Sizeof(l, sz)
  call mt_is_int(sz, 4, 'MPI_Sizeof(LOGICAL): 4')
  call MPI_Sizeof(c5, sz)
  call mt_is_int(sz, 5, 'MPI_Sizeof(CHARACTER(5)): 5')

  ! ---- a string beside choice buffers (MPI_Pack_external: all descriptors)
  iv = [(7 * i, i = 1, 6)]
  pos = 0
  call MPI_Pack_external('external32  ', iv(2:6:2), 3, MPI_INTEGER, pbuf, 64_MPI_ADDRESS_KIND, pos, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. pos == 12 .and. ichar(pbuf(4)) == 14 .and. ichar(pbuf(12)) == 42, &
             'MPI_Pack_external of iv(2:6:2) (external32: big-endian 14, 28, 42)')
  ir = 0
  pos = 0
  call MPI_Unpack_external('external32', pbuf, 64_MPI_ADDRESS_KIND, pos, ir, 3, MPI_INTEGER, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. pos == 12 .and. all(ir == [14, 28, 42]), 'MPI_Unpack_external: 14, 28, 42')

  ! ---- MPI_Bsend through an attached buffer; MPI_Buffer_detach gives its
  ! address back as a TYPE(C_PTR)
  call MPI_Buffer_attach(bbuf, 400, ierr)
  call MPI_Bsend(rank + 40, 1, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, ierr)
  call MPI_Recv(n, 1, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Buffer_detach(bp, sz, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == peer + 40 .and. sz == 400 .and. c_associated(bp, c_loc(bbuf)), &
             'MPI_Bsend, MPI_Buffer_detach: the buffer''s address (TYPE(C_PTR)) and size 400')

  ! ---- a derived type
  call MPI_Type_vector(3, 1, 2, MPI_INTEGER, vt, ierr)
  call MPI_Type_commit(vt)
  iv = [(10 * rank + i, i = 1, 6)]
  ir = 0
  call MPI_Sendrecv(iv, 1, vt, peer, 10, ir, 3, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(ir == [10 * peer + 1, 10 * peer + 3, 10 * peer + 5]), &
             'MPI_Type_vector(3, 1, 2): elements 1, 3, 5')
  call MPI_Type_free(vt)
  call mt_ok(vt == MPI_DATATYPE_NULL, 'MPI_Type_free: MPI_DATATYPE_NULL')

  ! ---- one-sided
  call MPI_Win_allocate(4_MPI_ADDRESS_KIND * 4, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win /= MPI_WIN_NULL, 'MPI_Win_allocate: TYPE(C_PTR) base, a window')
  call c_f_pointer(base, wbuf, [4])
  wbuf = -1
  call MPI_Win_fence(0, win)
  iv = [(100 * rank + i, i = 1, 6)]
  call MPI_Put(iv(1:6:2), 3, MPI_INTEGER, peer, 1_MPI_ADDRESS_KIND, 3, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(wbuf == [-1, 100 * peer + 1, 100 * peer + 3, 100 * peer + 5]), &
             'MPI_Put of the section iv(1:6:2) at displacement 1, fences')
  call MPI_Win_free(win)
  call mt_ok(win == MPI_WIN_NULL, 'MPI_Win_free: MPI_WIN_NULL')

  ! ---- generalized requests with _f08 callbacks
  call MPI_Grequest_start(my_gquery, my_gfree, my_gcancel, 21_MPI_ADDRESS_KIND, req, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI_Grequest_start of module procedures')
  call MPI_Cancel(req, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. gc_calls == 1 .and. .not. gc_complete, &
             'MPI_Cancel before MPI_Grequest_complete: cancel_fn called once, complete .FALSE.')
  call MPI_Grequest_complete(req)
  call MPI_Wait(req, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call mt_ok(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL .and. gq_calls == 1 .and. gf_calls == 1 &
             .and. st%MPI_SOURCE == 5 .and. st%MPI_TAG == 21 .and. n == 3, &
             'MPI_Wait: query_fn gave source 5, tag 21, 3 INTEGERs; free_fn called once')

  ! ---- MPI_F_sync_reg on an MPI_Irecv's buffer before MPI_Wait (and after)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  ir = -1
  call MPI_Irecv(ir, 3, MPI_INTEGER, peer, 31, MPI_COMM_WORLD, req)
  call MPI_F_sync_reg(ir)
  iv = [rank + 30, rank + 31, rank + 32, -1, -1, -1]
  call MPI_Send(iv, 3, MPI_INTEGER, peer, 31, MPI_COMM_WORLD)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_F_sync_reg(ir)
  call PMPI_F_sync_reg(n)
  call mt_ok(all(ir == [peer + 30, peer + 31, peer + 32]) .and. req == MPI_REQUEST_NULL, &
             'MPI_F_sync_reg (and PMPI_F_sync_reg) around MPI_Wait: the 3 INTEGERs received')

  ! ---- MPI_Status_f082f, MPI_Status_f2f08: MPI_Recv's status (source, tag,
  ! count) to mpif.h's INTEGER array and back, exactly
  call MPI_Isend(iv, 2, MPI_INTEGER, peer, 40 + rank, MPI_COMM_WORLD, req)
  call MPI_Recv(ir, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  fst = -5
  call MPI_Status_f082f(st, fst, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. fst(MPI_SOURCE) == peer .and. fst(MPI_TAG) == 40 + peer .and. &
             fst(MPI_ERROR) == MPI_SUCCESS, &
             'MPI_Status_f082f: status(MPI_SOURCE), status(MPI_TAG), status(MPI_ERROR) of MPI_Recv')
  st2%MPI_SOURCE = -9
  st2%MPI_TAG = -9
  st2%MPI_ERROR = -9
  call MPI_Status_f2f08(fst, st2)
  call MPI_Get_count(st2, MPI_INTEGER, n)
  fst2 = -6
  call PMPI_Status_f082f(st2, fst2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. st2%MPI_SOURCE == peer .and. st2%MPI_TAG == 40 + peer .and. &
             st2%MPI_ERROR == MPI_SUCCESS .and. n == 2 .and. all(fst2 == fst), &
             'MPI_Status_f2f08 back: source, tag, MPI_Get_count 2; PMPI_Status_f082f of it is the same array')
  ! (the status-ignore constants are no status to convert: MPI_ERR_ARG)
  call MPI_Status_f082f(MPI_STATUS_IGNORE, fst2, ierr)
  call MPI_Error_class(ierr, n)
  call mt_ok(n == MPI_ERR_ARG .and. all(fst2 == fst), 'MPI_Status_f082f(MPI_STATUS_IGNORE, ...): MPI_ERR_ARG, nothing written')
  call MPI_Status_f2f08(fst, MPI_STATUS_IGNORE, ierr)
  call MPI_Error_class(ierr, n)
  call mt_is_int(n, MPI_ERR_ARG, 'MPI_Status_f2f08(..., MPI_STATUS_IGNORE): MPI_ERR_ARG')

  ! ---- a session beside the World Model: process sets, a communicator from a group, a handler
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, ses)
  call MPI_Session_get_num_psets(ses, MPI_INFO_NULL, npsets)
  plen = len(psname)
  call MPI_Session_get_nth_pset(ses, MPI_INFO_NULL, 0, plen, psname)
  call mt_ok(npsets == 2 .and. psname == 'mpi://WORLD', 'MPI_Session_get_num_psets 2, the first is mpi://WORLD')
  call MPI_Group_from_session_pset(ses, 'mpi://WORLD', sgrp)
  call MPI_Comm_create_from_group(sgrp, 'org.rdmpi.f08', MPI_INFO_NULL, MPI_ERRORS_RETURN, scomm)
  call MPI_Comm_rank(scomm, srank)
  call MPI_Allreduce(srank + 1, ssum, 1, MPI_INTEGER, MPI_SUM, scomm)
  call mt_ok(srank == rank .and. ssum == 3, 'MPI_Comm_create_from_group of mpi://WORLD: an Allreduce (1 + 2)')
  call MPI_Comm_free(scomm)
  call MPI_Group_free(sgrp)
  call MPI_Session_create_errhandler(my_session_handler, seh)
  call MPI_Session_set_errhandler(ses, seh)
  call MPI_Group_from_session_pset(ses, 'mpi://nowhere', sgrp, ierr)
  call MPI_Error_class(ierr, n)
  call mt_ok(n == MPI_ERR_ARG .and. ses_calls == 1 .and. ses_code == ierr .and. .not. ses_null, &
             'an unknown process set: the f08 session handler called with the session, MPI_ERR_ARG')
  call MPI_Errhandler_free(seh)
  call MPI_Session_finalize(ses)
  call mt_ok(ses == MPI_SESSION_NULL, 'MPI_Session_finalize: MPI_SESSION_NULL')

  ! ---- MPI_Wtime
  t1 = MPI_Wtime()
  t2 = MPI_Wtime()
  call mt_ok(t1 > 0 .and. t2 >= t1 .and. MPI_Wtick() > 0, 'MPI_Wtime goes forward, MPI_Wtick > 0')

  call mt_done()
  call MPI_Finalize(ierr)
end program f08
