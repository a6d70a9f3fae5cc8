! io08.f90 - mpi_f08, 2 ranks: TYPE(MPI_File) (runtime/io/PLAN.md stage
! 1). MPI_File_open, MPI_File_write_at_all / MPI_File_read_at of a
! REAL(8) array section (a non-contiguous one written: mpi_f08 makes it a
! datatype), offsets of KIND=MPI_OFFSET_KIND, optional ierror, == and /=
! on TYPE(MPI_File), MPI_File_c2f-like round trip through %MPI_VAL, a
! Fortran file error handler of TYPE(MPI_File), MPI_File_close. Exact
! values. The file is made in the current directory.
program io08
  use mpi_f08
  implicit none
  type(MPI_File) :: fh, fh2
  type(MPI_Errhandler) :: eh
  type(MPI_Status) :: st
  integer :: ierr, rank, np, other, i, n
  double precision :: a(2, 5), got(5)
  integer(kind=MPI_OFFSET_KIND) :: off
  integer :: f8_calls, f8_code
  type(MPI_File) :: f8_file
  common /f8_eh/ f8_calls, f8_code, f8_file
  interface
    subroutine f8_errh(file, errcode)
      use mpi_f08
      type(MPI_File) :: file
      integer :: errcode
    end subroutine f8_errh
  end interface

  call mt_start(rank, np)
  other = mod(rank + 1, np)
  f8_calls = 0
  call mt_ok(MPI_FILE_NULL%MPI_VAL == 10 * 16777216, 'MPI_FILE_NULL is kind 10, index 0')
  call MPI_File_open(MPI_COMM_WORLD, 'io_f08.dat', ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. fh /= MPI_FILE_NULL, 'MPI_File_open gives a TYPE(MPI_File)')
  call MPI_File_create_errhandler(f8_errh, eh)
  call MPI_File_set_errhandler(fh, eh)
  do i = 1, 5
    a(1, i) = rank * 10 + i
    a(2, i) = -1
  end do
  off = 40 * rank
  call MPI_File_write_at_all(fh, off, a(1, :), 5, MPI_DOUBLE_PRECISION, st)
  call MPI_Get_count(st, MPI_DOUBLE_PRECISION, n)
  call mt_is_int(n, 5, 'MPI_File_write_at_all of a non-contiguous section: count 5')
  call MPI_Barrier(MPI_COMM_WORLD)
  got = 0
  off = 40 * other
  call MPI_File_read_at(fh, off, got, 5, MPI_DOUBLE_PRECISION, MPI_STATUS_IGNORE, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == [(other * 10 + i, i = 1, 5)]), &
             'MPI_File_read_at: the other rank''s row')
  fh2%MPI_VAL = fh%MPI_VAL
  call mt_ok(fh2 == fh, '== on TYPE(MPI_File)')
  call MPI_File_read_at(fh, -8_MPI_OFFSET_KIND, got, 1, MPI_DOUBLE_PRECISION, MPI_STATUS_IGNORE, ierr)
  call mt_ok(ierr == MPI_ERR_ARG .and. f8_calls == 1 .and. f8_file == fh .and. f8_code == MPI_ERR_ARG, &
             'a Fortran handler of TYPE(MPI_File) called with the file')
  call MPI_File_close(fh)
  call mt_ok(fh == MPI_FILE_NULL, 'MPI_File_close sets MPI_FILE_NULL')
  call MPI_Errhandler_free(eh)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call MPI_File_delete('io_f08.dat', MPI_INFO_NULL)
  call mt_done()
  call MPI_Finalize()
end program io08

subroutine f8_errh(file, errcode)
  use mpi_f08
  implicit none
  type(MPI_File) :: file
  integer :: errcode
  integer :: f8_calls, f8_code
  type(MPI_File) :: f8_file
  common /f8_eh/ f8_calls, f8_code, f8_file
  f8_calls = f8_calls + 1
  f8_code = errcode
  f8_file = file
end subroutine f8_errh
