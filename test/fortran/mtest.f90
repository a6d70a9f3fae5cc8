! mtest.f90 - checks inside the Fortran test programs, the twin of
! test/mpi/mtest.h: every check prints "ok [rank R] what" or
! "not ok [rank R] what" and mt_done prints "done [rank R] N checks,
! F failed", so test/mpi/lib.sh's mpi_check reads them. External
! subroutines (no module), callable from fixed- and free-form programs.
! A program starts with mt_start(rank, np), or with mt_init(rank) where it
! must do the start itself.

! The start every test program shares: MPI_INIT (unless the program
! initialized MPI itself, e.g. by MPI_INIT_THREAD; then no point), rank
! and size in MPI_COMM_WORLD, mt_init, and a point that MPI_INIT
! succeeded. Through mpif.h (rdmpifort -c finds it): the helpers need no
! module, and programs on mpif.h and on `use mpi` both call them.
subroutine mt_start(rank, np)
  implicit none
  include 'mpif.h'
  integer, intent(out) :: rank, np
  integer :: ierr, ierr2
  logical :: done
  call MPI_INITIALIZED(done, ierr)
  if (.not. done) call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr2)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr2)
  call mt_init(rank)
  if (.not. done) call mt_is_int(ierr, MPI_SUCCESS, 'MPI_INIT')
end subroutine mt_start

subroutine mt_init(rank)
  implicit none
  integer, intent(in) :: rank
  integer :: mt_rank, mt_checks, mt_failed
  common /rd_mtest/ mt_rank, mt_checks, mt_failed
  mt_rank = rank
  mt_checks = 0
  mt_failed = 0
end subroutine mt_init

subroutine mt_ok(cond, what)
  implicit none
  logical, intent(in) :: cond
  character(len=*), intent(in) :: what
  integer :: mt_rank, mt_checks, mt_failed
  common /rd_mtest/ mt_rank, mt_checks, mt_failed
  mt_checks = mt_checks + 1
  if (cond) then
    write (6, '(a,i0,2a)') 'ok [rank ', mt_rank, '] ', what
  else
    mt_failed = mt_failed + 1
    write (6, '(a,i0,2a)') 'not ok [rank ', mt_rank, '] ', what
  end if
end subroutine mt_ok

subroutine mt_is_int(got, expected, what)
  implicit none
  integer, intent(in) :: got, expected
  character(len=*), intent(in) :: what
  integer :: mt_rank, mt_checks, mt_failed
  common /rd_mtest/ mt_rank, mt_checks, mt_failed
  call mt_ok(got == expected, what)
  if (got /= expected) write (6, '(a,i0,a,i0,a,i0)') '# [rank ', mt_rank, '] got ', got, &
    ', expected ', expected
end subroutine mt_is_int

subroutine mt_is_dbl(got, expected, what)
  implicit none
  double precision, intent(in) :: got, expected
  character(len=*), intent(in) :: what
  integer :: mt_rank, mt_checks, mt_failed
  common /rd_mtest/ mt_rank, mt_checks, mt_failed
  call mt_ok(got == expected, what)
  if (got /= expected) write (6, '(a,i0,a,g0,a,g0)') '# [rank ', mt_rank, '] got ', got, &
    ', expected ', expected
end subroutine mt_is_dbl

subroutine mt_done()
  implicit none
  integer :: mt_rank, mt_checks, mt_failed
  common /rd_mtest/ mt_rank, mt_checks, mt_failed
  write (6, '(a,i0,a,i0,a,i0,a)') 'done [rank ', mt_rank, '] ', mt_checks, ' checks, ', &
    mt_failed, ' failed'
  flush (6)
end subroutine mt_done
