! f90_abort.f90 - MPI_ABORT from Fortran: rank 1 aborts with code 7
! (unit 6 flushed first: libgfortran buffers it on a pipe) while rank 0
! waits in a barrier; rrun must exit 7.
program f90_abort
  implicit none
  include 'mpif.h'
  integer :: ierr, rank

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  if (rank == 1) then
    write (6, '(a)') 'rank 1 calls MPI_ABORT(MPI_COMM_WORLD, 7)'
    flush (6)
    call MPI_ABORT(MPI_COMM_WORLD, 7, ierr)
  else
    call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  end if
  write (6, '(a,i0,a)') 'rank ', rank, ' went on after MPI_ABORT'
  call MPI_FINALIZE(ierr)
end program f90_abort
