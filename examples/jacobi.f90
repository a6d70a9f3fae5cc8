! jacobi.f90 - Poisson's equation on the unit square by Jacobi iteration on
! a Cartesian grid of ranks, in Fortran: the twin of heat2d.c.
!
!   rdmpifort -O2 jacobi.f90 -o jacobi
!   rrun -np 4 ./jacobi [N [TOL]]
!
! The problem: -(u_xx + u_yy) = f on the unit square, u = 0 on its edges,
! on N x N interior points of spacing h = 1/(N+1) with the 5-point stencil,
! where f = 2 (x (1-x) + y (1-y)). The exact solution u = x (1-x) y (1-y)
! solves the discrete equations too (the stencil is exact on polynomials of
! degree 2 in each variable), so the printed error is only how far from
! convergence the iteration stopped.
!
! Each rank owns a block of the grid with one layer of halo points around
! it, and before each sweep gets its neighbours' edge values into its halo
! (MPI_SENDRECV). Fortran stores arrays column by column: u(1:nx, j) is
! contiguous and goes as nx values, u(i, 1:ny) is strided and goes as one
! vector datatype. The sweeps stop when the largest change of any point in
! a sweep (MPI_ALLREDUCE with MPI_MAX) is below TOL. Rank 0 then gathers
! the blocks into the whole grid (subarray datatypes) and prints the
! sweeps, the last change, the error and the sum of the grid in a fixed
! order: every point is computed by the same arithmetic whatever the
! blocks, and a maximum does not depend on the order of the ranks, so the
! line is the same to the last bit on any number of ranks.
!
! Written on the mpi module. For mpi_f08: `use mpi_f08`, and give the
! handles below their types: type(MPI_Comm) :: grid and
! type(MPI_Datatype) :: xhalo, interior, place. The calls stay as they are.
! ierr is not looked at: MPI_COMM_WORLD's default error handler,
! MPI_ERRORS_ARE_FATAL, ends the job on any error.
program jacobi
  use mpi
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: max_sweeps = 1000000
  ! MPI handles
  integer :: grid, xhalo, interior, place

  integer :: ierr, np, rank, r, dims(2), coords(2), c(2)
  integer :: west, east, south, north
  integer :: n, nx, ny, i0, j0, rnx, rny, ri0, rj0, i, j, sweeps
  logical :: periods(2) = .false.
  real(dp) :: tol, h, change, mine, t0, elapsed, tmax, total, err
  real(dp), allocatable :: u(:, :), v(:, :), f(:, :), tmp(:, :), whole(:, :)
  character(len=64) :: arg

  call MPI_INIT(ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  n = 48
  tol = 1.0e-10_dp
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *, iostat=ierr) n
    if (ierr /= 0 .or. n < 1) call fail('N must be a positive integer: '//trim(arg))
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=ierr) tol
    if (ierr /= 0 .or. .not. tol > 0) call fail('TOL must be a positive number: '//trim(arg))
  end if

  ! The grid of ranks: dims(1) x dims(2), as square as np allows; the
  ! first dimension splits x (the index i), the second y (the index j).
  dims = 0
  call MPI_DIMS_CREATE(np, 2, dims, ierr)
  if (n < dims(1) .or. n < dims(2)) call fail('N is smaller than the grid of ranks')
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  call MPI_COMM_RANK(grid, rank, ierr)
  call MPI_CART_COORDS(grid, rank, 2, coords, ierr)
  ! neighbours; MPI_PROC_NULL at the edges of the square, where the halo
  ! keeps the boundary value 0 and the exchanges do nothing
  call MPI_CART_SHIFT(grid, 0, 1, west, east, ierr)
  call MPI_CART_SHIFT(grid, 1, 1, south, north, ierr)

  ! my block: the points i0+1 .. i0+nx by j0+1 .. j0+ny of the N x N grid,
  ! at u(1:nx, 1:ny); the halo is u(0, :), u(nx+1, :), u(:, 0), u(:, ny+1)
  call split(n, dims(1), coords(1), i0, nx)
  call split(n, dims(2), coords(2), j0, ny)
  allocate (u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1), f(nx, ny))
  u = 0
  v = 0
  h = 1.0_dp / (n + 1)
  do j = 1, ny
    do i = 1, nx
      f(i, j) = h * h * 2 * (g(i0 + i) + g(j0 + j))
    end do
  end do

  ! u(i, 1:ny), one value every nx+2: the halo to and from west and east
  call MPI_TYPE_VECTOR(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, xhalo, ierr)
  call MPI_TYPE_COMMIT(xhalo, ierr)

  t0 = MPI_WTIME()
  sweeps = 0
  do
    call exchange(u)
    call sweep(u, v, mine)
    call move_alloc(u, tmp) ! u, v = v, u
    call move_alloc(v, u)
    call move_alloc(tmp, v)
    sweeps = sweeps + 1
    call MPI_ALLREDUCE(mine, change, 1, MPI_DOUBLE_PRECISION, MPI_MAX, grid, ierr)
    if (change < tol .or. sweeps == max_sweeps) exit
  end do
  elapsed = MPI_WTIME() - t0
  call MPI_REDUCE(elapsed, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, grid, ierr)

  ! Rank 0 gathers the blocks: each rank sends the interior of its array
  ! (a subarray without the halo), which rank 0 receives at the block's
  ! place in the whole grid (a subarray of it). Subarray starts count from
  ! 0 in Fortran too.
  call MPI_TYPE_CREATE_SUBARRAY(2, [nx + 2, ny + 2], [nx, ny], [1, 1], MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, interior, ierr)
  call MPI_TYPE_COMMIT(interior, ierr)
  if (rank == 0) then
    allocate (whole(n, n))
    do r = 0, np - 1
      call MPI_CART_COORDS(grid, r, 2, c, ierr)
      call split(n, dims(1), c(1), ri0, rnx)
      call split(n, dims(2), c(2), rj0, rny)
      call MPI_TYPE_CREATE_SUBARRAY(2, [n, n], [rnx, rny], [ri0, rj0], MPI_ORDER_FORTRAN, &
                                    MPI_DOUBLE_PRECISION, place, ierr)
      call MPI_TYPE_COMMIT(place, ierr)
      if (r == 0) then ! from itself
        call MPI_SENDRECV(u, 1, interior, 0, 9, whole, 1, place, 0, 9, grid, MPI_STATUS_IGNORE, ierr)
      else
        call MPI_RECV(whole, 1, place, r, 9, grid, MPI_STATUS_IGNORE, ierr)
      end if
      call MPI_TYPE_FREE(place, ierr)
    end do
    ! sum and error in one fixed order, whatever the ranks
    total = 0
    err = 0
    do j = 1, n
      do i = 1, n
        total = total + whole(i, j)
        err = max(err, abs(whole(i, j) - g(i) * g(j)))
      end do
    end do
    write (output_unit, '(a,i0,a,i0,a,i0,a,i0,a,i0,2a)') 'jacobi: ', n, ' x ', n, ' points on ', np, &
      ' ranks (', dims(1), ' x ', dims(2), '), tolerance ', str(tol)
    write (output_unit, '(a,i0,6a)') 'sweeps ', sweeps, ' change ', str(change), ' error ', str(err), &
      ' sum ', str(total)
    write (arg, '(f12.3)') tmax
    write (output_unit, '(3a)') 'time ', trim(adjustl(arg)), ' s'
    if (sweeps == max_sweeps) write (output_unit, '(a,i0,a)') 'jacobi: not converged in ', max_sweeps, ' sweeps'
    flush (output_unit)
  else
    call MPI_SEND(u, 1, interior, 0, 9, grid, ierr)
  end if

  call MPI_TYPE_FREE(interior, ierr)
  call MPI_TYPE_FREE(xhalo, ierr)
  call MPI_COMM_FREE(grid, ierr)
  call MPI_FINALIZE(ierr)
  if (sweeps == max_sweeps) error stop 1

contains

  ! g(k) = x (1-x) at the grid's k-th point x = k h: f and the exact
  ! solution are made of it
  pure function g(k)
    integer, intent(in) :: k
    real(dp) :: g
    g = k * h * (1 - k * h)
  end function g

  ! part k of m points split p ways: the points first+1 .. first+num
  pure subroutine split(m, p, k, first, num)
    integer, intent(in) :: m, p, k
    integer, intent(out) :: first, num
    first = int(int(m, kind=8) * k / p)
    num = int(int(m, kind=8) * (k + 1) / p) - first
  end subroutine split

  ! fill a's halo with the neighbours' edge values; an element given as the
  ! buffer stands for the memory from it on (Fortran's sequence association)
  subroutine exchange(a)
    real(dp), intent(inout) :: a(0:nx + 1, 0:ny + 1)
    ! south and north: the edge columns a(1:nx, 1) and a(1:nx, ny), contiguous
    call MPI_SENDRECV(a(1, ny), nx, MPI_DOUBLE_PRECISION, north, 1, &
                      a(1, 0), nx, MPI_DOUBLE_PRECISION, south, 1, grid, MPI_STATUS_IGNORE, ierr)
    call MPI_SENDRECV(a(1, 1), nx, MPI_DOUBLE_PRECISION, south, 2, &
                      a(1, ny + 1), nx, MPI_DOUBLE_PRECISION, north, 2, grid, MPI_STATUS_IGNORE, ierr)
    ! west and east: the edge rows a(1, 1:ny) and a(nx, 1:ny), one xhalo each
    call MPI_SENDRECV(a(nx, 1), 1, xhalo, east, 3, a(0, 1), 1, xhalo, west, 3, grid, MPI_STATUS_IGNORE, ierr)
    call MPI_SENDRECV(a(1, 1), 1, xhalo, west, 4, a(nx + 1, 1), 1, xhalo, east, 4, grid, MPI_STATUS_IGNORE, ierr)
  end subroutine exchange

  ! one Jacobi sweep from a into b; dmax: the largest |b - a| of the block
  subroutine sweep(a, b, dmax)
    real(dp), intent(in) :: a(0:nx + 1, 0:ny + 1)
    real(dp), intent(inout) :: b(0:nx + 1, 0:ny + 1)
    real(dp), intent(out) :: dmax
    integer :: i, j
    dmax = 0
    do j = 1, ny
      do i = 1, nx
        b(i, j) = 0.25_dp * (a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1) + f(i, j))
        dmax = max(dmax, abs(b(i, j) - a(i, j)))
      end do
    end do
  end subroutine sweep

  ! x with 17 significant digits: enough to tell any two doubles apart
  function str(x) result(s)
    real(dp), intent(in) :: x
    character(len=:), allocatable :: s
    character(len=32) :: buf
    write (buf, '(es24.16)') x
    s = trim(adjustl(buf))
  end function str

  subroutine fail(why)
    character(len=*), intent(in) :: why
    write (error_unit, '(2a)') 'jacobi: ', why
    call MPI_ABORT(MPI_COMM_WORLD, 2, ierr)
  end subroutine fail
end program jacobi
