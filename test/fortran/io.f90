! io.f90 - the mpi module (use mpi), 2 ranks: files (runtime/io/PLAN.md
! stage 1). MPI_FILE_OPEN, MPI_FILE_WRITE_AT / READ_AT with offsets of
! KIND=MPI_OFFSET_KIND (one beyond 2**32: a sparse file), statuses and
! MPI_GET_COUNT, MPI_FILE_GET_SIZE / SET_SIZE, the individual pointer
! (MPI_FILE_SEEK, MPI_FILE_GET_POSITION, MPI_FILE_WRITE_ALL), a file
! error handler written in Fortran (MPI_FILE_CREATE_ERRHANDLER) on
! MPI_FILE_NULL called by a failing MPI_FILE_OPEN with MPI_FILE_NULL's
! handle and inherited by a new file, MPI_FILE_CALL_ERRHANDLER,
! MPI_FILE_IWRITE_AT_ALL / IREAD_AT_ALL completed by MPI_WAIT,
! MPI_FILE_CLOSE setting MPI_FILE_NULL, MPI_FILE_DELETE. Exact values.
! The file is made in the current directory (fortran.sh's scratch one).
program io
  use mpi
  implicit none
  external fio_errh
  integer :: ierr, rank, np, other, i, n, fh, eh, eh2, amode, req
  integer :: buf(10), got(10), st(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: off, sz, pos
  integer :: fe_calls, fe_file, fe_code
  common /fio_eh/ fe_calls, fe_file, fe_code

  call mt_start(rank, np)
  other = mod(rank + 1, np)
  fe_calls = 0

  ! a Fortran handler on MPI_FILE_NULL: a failing open calls it
  call MPI_FILE_CREATE_ERRHANDLER(fio_errh, eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh /= MPI_ERRHANDLER_NULL, 'MPI_FILE_CREATE_ERRHANDLER of a Fortran subroutine')
  call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, eh, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FILE_SET_ERRHANDLER on MPI_FILE_NULL')
  fh = MPI_FILE_NULL
  call MPI_FILE_OPEN(MPI_COMM_WORLD, 'no_such_file.dat', MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call mt_ok(ierr == MPI_ERR_NO_SUCH_FILE .and. fe_calls == 1 .and. fe_file == MPI_FILE_NULL &
             .and. fe_code == MPI_ERR_NO_SUCH_FILE, &
             'a failing MPI_FILE_OPEN: MPI_ERR_NO_SUCH_FILE, the Fortran handler called with MPI_FILE_NULL')

  amode = ior(MPI_MODE_CREATE, MPI_MODE_RDWR)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, 'io_f.dat', amode, MPI_INFO_NULL, fh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. fh /= MPI_FILE_NULL, 'MPI_FILE_OPEN CREATE + RDWR')
  call MPI_FILE_GET_ERRHANDLER(fh, eh2, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh2 == eh, 'the new file took MPI_FILE_NULL''s handler')
  call MPI_ERRHANDLER_FREE(eh2, ierr)

  ! each rank 10 INTEGERs at byte 40 * rank
  do i = 1, 10
    buf(i) = rank * 100 + i
  end do
  off = 40 * rank
  call MPI_FILE_WRITE_AT(fh, off, buf, 10, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_ok(n == 10, 'MPI_FILE_WRITE_AT of 10 INTEGERs: count 10')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  got = -1
  off = 40 * other
  call MPI_FILE_READ_AT(fh, off, got, 10, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 10 .and. all(got == [(other * 100 + i, i = 1, 10)]), &
             'MPI_FILE_READ_AT of the other rank''s INTEGERs')
  call MPI_FILE_GET_SIZE(fh, sz, ierr)
  call mt_ok(sz == 40_MPI_OFFSET_KIND * np, 'MPI_FILE_GET_SIZE')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr) ! every rank has looked before the file grows

  ! an offset beyond 2**32 (a sparse file), then back
  off = 5000000000_MPI_OFFSET_KIND
  if (rank == 0) call MPI_FILE_WRITE_AT(fh, off, buf, 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_GET_SIZE(fh, sz, ierr)
  call mt_ok(sz == 5000000004_MPI_OFFSET_KIND, 'an INTEGER written at byte 5000000000: the size is 5000000004')
  got(1) = -1
  call MPI_FILE_READ_AT(fh, off, got, 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call mt_ok(got(1) == 1, 'and read back from there')
  call MPI_FILE_SET_SIZE(fh, 40_MPI_OFFSET_KIND * np, ierr)
  call MPI_FILE_GET_SIZE(fh, sz, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. sz == 40_MPI_OFFSET_KIND * np, 'MPI_FILE_SET_SIZE back')

  ! the individual pointer
  call MPI_FILE_SEEK(fh, 40_MPI_OFFSET_KIND * other + 8, MPI_SEEK_SET, ierr)
  call MPI_FILE_READ(fh, got, 2, MPI_INTEGER, st, ierr)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call mt_ok(got(1) == other * 100 + 3 .and. got(2) == other * 100 + 4 .and. pos == 40_MPI_OFFSET_KIND * other + 16, &
             'MPI_FILE_SEEK, MPI_FILE_READ, MPI_FILE_GET_POSITION')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SEEK(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_END, ierr)
  call MPI_FILE_GET_POSITION(fh, pos, ierr)
  call mt_ok(pos == 40_MPI_OFFSET_KIND * np, 'MPI_FILE_SEEK to MPI_SEEK_END')

  ! an error on the file: its (inherited) Fortran handler, with its handle
  fe_calls = 0
  call MPI_FILE_READ_AT(fh, -1_MPI_OFFSET_KIND, got, 1, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_ERR_ARG .and. fe_calls == 1 .and. fe_file == fh .and. fe_code == MPI_ERR_ARG, &
             'a negative offset: MPI_ERR_ARG, the handler called with the file''s handle')
  call MPI_FILE_CALL_ERRHANDLER(fh, MPI_ERR_OTHER, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. fe_calls == 2 .and. fe_code == MPI_ERR_OTHER, 'MPI_FILE_CALL_ERRHANDLER')

  ! a nonblocking collective access, completed by MPI_WAIT
  do i = 1, 10
    buf(i) = rank * 1000 + i
  end do
  call MPI_FILE_IWRITE_AT_ALL(fh, 40_MPI_OFFSET_KIND * rank, buf, 10, MPI_INTEGER, req, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FILE_IWRITE_AT_ALL starts')
  call MPI_WAIT(req, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 10 .and. req == MPI_REQUEST_NULL, &
             'its MPI_WAIT: count 10, the request MPI_REQUEST_NULL')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  got = -1
  call MPI_FILE_IREAD_AT_ALL(fh, 40_MPI_OFFSET_KIND * other, got, 10, MPI_INTEGER, req, ierr)
  call MPI_WAIT(req, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, n, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 10 .and. all(got == [(other * 1000 + i, i = 1, 10)]), &
             'MPI_FILE_IREAD_AT_ALL of the other rank''s INTEGERs, MPI_WAIT: count 10')

  call MPI_FILE_CLOSE(fh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL, 'MPI_FILE_CLOSE sets MPI_FILE_NULL')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_FILE_DELETE('io_f.dat', MPI_INFO_NULL, ierr)
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FILE_DELETE')
  end if
  call MPI_FILE_SET_ERRHANDLER(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. eh == MPI_ERRHANDLER_NULL, 'MPI_ERRHANDLER_FREE')
  call mt_done()
  call MPI_FINALIZE(ierr)
end program io

subroutine fio_errh(file, errcode)
  implicit none
  integer :: file, errcode
  integer :: fe_calls, fe_file, fe_code
  common /fio_eh/ fe_calls, fe_file, fe_code
  fe_calls = fe_calls + 1
  fe_file = file
  fe_code = errcode
end subroutine fio_errh
