! f90_rma.f90 - mpif.h, 2 ranks: one-sided communication from Fortran.
! A window over an INTEGER array (name, group, info), MPI_PUT / MPI_GET /
! MPI_ACCUMULATE between fences, MPI_FETCH_AND_OP under an exclusive lock,
! MPI_COMPARE_AND_SWAP, MPI_RGET and MPI_RPUT under MPI_WIN_LOCK_ALL with
! the flushes, post-start-complete-wait with MPI_WIN_TEST, a dynamic
! window with memory attached. Exact values.
program f90_rma
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, np, peer, win, x, z, one, o, c, grp, g2, n, req, info
  integer :: w(4), v(2), y
  ! (window memory and what one-sided calls fill in a common block: the
  ! compiler must assume any call may change them)
  common /f90_rma_mem/ w, v, y
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, addr, paddr
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: wname

  call mt_start(rank, np)
  call mt_is_int(np, 2, 'MPI_COMM_SIZE of MPI_COMM_WORLD')
  peer = 1 - rank

  ! ---- a window of 4 INTEGERs, displacement unit 4
  w = rank * 100 + (/ 1, 2, 3, 4 /)
  wsize = 16
  call MPI_WIN_CREATE(w, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win /= MPI_WIN_NULL, 'MPI_WIN_CREATE')
  call MPI_WIN_SET_NAME(win, 'fwin', ierr)
  call MPI_WIN_GET_NAME(win, wname, n, ierr)
  call mt_ok(wname == 'fwin' .and. n == 4, 'MPI_WIN_SET_NAME, MPI_WIN_GET_NAME')
  call MPI_WIN_GET_GROUP(win, grp, ierr)
  call MPI_GROUP_SIZE(grp, n, ierr)
  call mt_is_int(n, 2, 'MPI_WIN_GET_GROUP: 2 ranks')
  call MPI_WIN_GET_INFO(win, info, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'MPI_WIN_GET_INFO')
  call MPI_WIN_SET_INFO(win, info, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WIN_SET_INFO')
  call MPI_INFO_FREE(info, ierr)

  ! ---- fences: MPI_PUT, MPI_GET, then MPI_ACCUMULATE
  call MPI_WIN_FENCE(0, win, ierr)
  x = rank + 50
  disp = 1
  call MPI_PUT(x, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
  disp = 3
  y = -1
  call MPI_GET(y, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call mt_is_int(w(2), peer + 50, 'MPI_PUT between fences: w(2) is the peer''s')
  call mt_is_int(y, peer * 100 + 4, 'MPI_GET between fences: the peer''s w(4)')
  z = 5
  disp = 0
  call MPI_ACCUMULATE(z, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call mt_is_int(w(1), rank * 100 + 6, 'MPI_ACCUMULATE with MPI_SUM: w(1) + 5')

  ! ---- passive target: MPI_FETCH_AND_OP, MPI_COMPARE_AND_SWAP, MPI_RGET, MPI_RPUT
  call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, peer, 0, win, ierr)
  one = 1
  disp = 2
  z = -1
  call MPI_FETCH_AND_OP(one, z, MPI_INTEGER, peer, disp, MPI_SUM, win, ierr)
  call MPI_WIN_UNLOCK(peer, win, ierr)
  call mt_is_int(z, peer * 100 + 3, 'MPI_FETCH_AND_OP under MPI_WIN_LOCK: the old value')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK_ALL(0, win, ierr)
  o = 999
  c = peer * 100 + 4
  z = -1
  call MPI_COMPARE_AND_SWAP(o, c, z, MPI_INTEGER, peer, disp, win, ierr)
  call MPI_WIN_FLUSH(peer, win, ierr)
  call mt_is_int(z, peer * 100 + 4, 'MPI_COMPARE_AND_SWAP: the value MPI_FETCH_AND_OP left')
  y = -1
  call MPI_RGET(y, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call mt_ok(y == 999 .and. req == MPI_REQUEST_NULL, 'MPI_RGET after the swap: 999')
  x = rank + 600
  disp = 3
  call MPI_RPUT(x, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call MPI_WIN_FLUSH_LOCAL(peer, win, ierr)
  call MPI_WIN_FLUSH_LOCAL_ALL(win, ierr)
  call MPI_WIN_FLUSH_ALL(win, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_RPUT, the flushes')
  call MPI_WIN_UNLOCK_ALL(win, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, rank, 0, win, ierr)
  call MPI_WIN_SYNC(win, ierr)
  call mt_ok(w(3) == 999 .and. w(4) == peer + 600, 'my window after the peer''s swap and MPI_RPUT')
  call MPI_WIN_UNLOCK(rank, win, ierr)

  ! ---- post-start-complete-wait, MPI_WIN_TEST
  call MPI_GROUP_INCL(grp, 1, (/ peer /), g2, ierr)
  call MPI_WIN_POST(g2, 0, win, ierr)
  call MPI_WIN_START(g2, 0, win, ierr)
  x = rank + 7
  disp = 0
  call MPI_PUT(x, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_COMPLETE(win, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_WIN_TEST(win, flag, ierr)
  end do
  call mt_is_int(w(1), peer + 7, 'MPI_WIN_POST / START / COMPLETE, MPI_WIN_TEST: the peer''s MPI_PUT')
  ! (post before start: MPI_WIN_START may wait for the peer's post)
  call MPI_WIN_POST(g2, 0, win, ierr)
  call MPI_WIN_START(g2, 0, win, ierr)
  call MPI_WIN_COMPLETE(win, ierr)
  call MPI_WIN_WAIT(win, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WIN_WAIT')
  call MPI_GROUP_FREE(g2, ierr)
  call MPI_GROUP_FREE(grp, ierr)
  call MPI_WIN_FREE(win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL, 'MPI_WIN_FREE: MPI_WIN_NULL')

  ! ---- a dynamic window: v attached, its address told to the peer
  call MPI_WIN_CREATE_DYNAMIC(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  v = -1
  wsize = 8
  call MPI_WIN_ATTACH(win, v, wsize, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_WIN_CREATE_DYNAMIC, MPI_WIN_ATTACH')
  call MPI_GET_ADDRESS(v(2), addr, ierr)
  call MPI_SENDRECV(addr, 1, MPI_AINT, peer, 40, paddr, 1, MPI_AINT, peer, 40, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  x = rank + 20
  call MPI_PUT(x, 1, MPI_INTEGER, peer, paddr, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call mt_ok(v(1) == -1 .and. v(2) == peer + 20, 'MPI_PUT to the peer''s attached v(2) by its address')
  call MPI_WIN_DETACH(win, v, ierr)
  call MPI_WIN_FREE(win, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. win == MPI_WIN_NULL, 'MPI_WIN_DETACH, MPI_WIN_FREE')

  call MPI_FINALIZE(ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
  call mt_done()
end program f90_rma
