! f08_coll.f90 - collectives, communicators, Cartesian topologies and
! derived types of Fortran arrays through the mpi_f08 module (any number
! of ranks; fortran.sh runs it on 3): every blocking collective and
! MPI_Ibcast, MPI_Iallreduce, MPI_Ialltoall + MPI_Waitall, on INTEGER,
! REAL, DOUBLE PRECISION, COMPLEX, LOGICAL (MPI_LAND, MPI_LOR, MPI_LXOR)
! and MPI_2INTEGER (MPI_MAXLOC, MPI_MINLOC), MPI_IN_PLACE in
! MPI_Allreduce and at MPI_Gather's root; MPI_Comm_split (colours, keys,
! MPI_UNDEFINED); MPI_Dims_create, MPI_Cart_create (periodic in one
! dimension), MPI_Cart_get, MPI_Cart_coords, MPI_Cart_rank, MPI_Cart_shift
! (MPI_PROC_NULL at the non-periodic edges), MPI_Cart_sub with a LOGICAL
! remain_dims; MPI_Type_create_subarray in MPI_ORDER_FORTRAN (a 2x3 block
! of a 4x5 INTEGER array, sent and received), a column a(:, j) and a row
! a(i, :) by MPI_Type_contiguous / MPI_Type_vector, MPI_Type_create_resized
! and an MPI_Gather into a column-interleaved matrix. Every result is
! checked exactly against values computed from the ranks. ierror is
! absent in some calls and present in others.
program f08_coll
  use mpi_f08
  implicit none
  integer :: ierr, rank, np, i, j, k, n, nexp, root, c0, c1, src, dst, e1, e2
  integer :: ia(8), ib(8), isum, iprod
  integer, allocatable :: ig(:), counts(:), displs(:), scounts(:), sdispls(:), rcounts(:), rdispls(:)
  integer, allocatable :: imat(:, :), i2(:, :)
  real, allocatable :: rg(:)
  real :: rs(4), rr(3)
  double precision :: d(4), dsum
  double precision, allocatable :: dg(:)
  complex :: z(2), zr(2)
  complex, allocatable :: zg(:)
  logical :: l3(3), lland(3), llor(3), llxor(3), ok, lremain(2), periods(2), per2(2)
  logical, allocatable :: lg(:)
  integer :: dims(2), coords(2), dims2(2), coords2(2), a(4, 5), b(4, 5), cbuf(6), row(5), col(4)
  integer :: pair(2), maxl(2), minl(2), tstat
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
  type(MPI_Comm) :: split, split2, cart, sub0, sub1
  type(MPI_Datatype) :: tsub, tcol, trow, tvec, trow1, tpair
  type(MPI_Datatype), allocatable :: stypes(:), rtypes(:)
  type(MPI_Request) :: reqs(3)
  type(MPI_Status) :: st, sts(3)
  integer, asynchronous :: nb_b(4), nb_as(8), nb_ar(8)
  double precision, asynchronous :: nb_d(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  call mt_init(rank)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Init (ierror present)')
  allocate (ig(8 * np), counts(np), displs(np), scounts(np), sdispls(np), rcounts(np), rdispls(np))
  allocate (rg(np * (np + 1)), dg(np * (np + 1)), zg(2 * np), lg(np), imat(np, 4))
  allocate (stypes(np), rtypes(np))

  ! ================================================================ collectives
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Barrier')

  ! MPI_Bcast of DOUBLE PRECISION from the last rank
  root = np - 1
  d = -1d0
  if (rank == root) d = [1.5d0, 2.25d0, -3.125d0, 1d300]
  call MPI_Bcast(d, 4, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD)
  call mt_ok(all(d == [1.5d0, 2.25d0, -3.125d0, 1d300]), 'MPI_Bcast: 4 DOUBLE PRECISION from the last rank')

  ! MPI_Gather of INTEGER pairs (rank, 10 rank) to rank 0
  ia(1:2) = [rank, 10 * rank]
  ig = -1
  call MPI_Gather(ia, 2, MPI_INTEGER, ig, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    ok = ierr == MPI_SUCCESS
    do i = 0, np - 1
      ok = ok .and. ig(2 * i + 1) == i .and. ig(2 * i + 2) == 10 * i
    end do
    call mt_ok(ok .and. all(ig(2 * np + 1:) == -1), 'MPI_Gather: (r, 10 r) of each rank r at the root, in rank order')
  end if
  ! MPI_IN_PLACE at the root: the root's own block stays where it is
  ig = -1
  if (rank == 0) then
    ig(1:3) = [7, 8, 9]
    call MPI_Gather(MPI_IN_PLACE, 3, MPI_INTEGER, ig, 3, MPI_INTEGER, 0, MPI_COMM_WORLD)
    ok = all(ig(1:3) == [7, 8, 9])
    do i = 1, np - 1
      ok = ok .and. all(ig(3 * i + 1:3 * i + 3) == [i, i + 1, i + 2])
    end do
    call mt_ok(ok, 'MPI_Gather with MPI_IN_PLACE at the root: its block in place, the others (r, r+1, r+2)')
  else
    ia(1:3) = [rank, rank + 1, rank + 2]
    call MPI_Gather(ia, 3, MPI_INTEGER, ig, 3, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call mt_ok(all(ig == -1), 'MPI_Gather with MPI_IN_PLACE: a non-root''s recvbuf is untouched')
  end if

  ! MPI_Gatherv of REAL: rank r sends r+1 values r + 0.5, placed with a gap of one
  do i = 1, np
    counts(i) = i
    displs(i) = (i - 1) * i / 2 + (i - 1)
  end do
  rs = real(rank) + 0.5
  rg = -1.0
  call MPI_Gatherv(rs, rank + 1, MPI_REAL, rg, counts, displs, MPI_REAL, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    ok = .true.
    do i = 0, np - 1
      ok = ok .and. all(rg(displs(i + 1) + 1:displs(i + 1) + i + 1) == real(i) + 0.5)
      if (i < np - 1) ok = ok .and. rg(displs(i + 1) + i + 2) == -1.0
    end do
    call mt_ok(ok, 'MPI_Gatherv: r+1 REALs r + 0.5 of each rank r at its displacement, the gaps untouched')
  end if

  ! MPI_Scatter of COMPLEX from rank 0: rank r gets (2r+1, -(2r+1)), (2r+2, -(2r+2))
  if (rank == 0) then
    do i = 1, 2 * np
      zg(i) = cmplx(real(i), -real(i))
    end do
  end if
  zr = (0.0, 0.0)
  call MPI_Scatter(zg, 2, MPI_COMPLEX, zr, 2, MPI_COMPLEX, 0, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. zr(1) == cmplx(real(2 * rank + 1), -real(2 * rank + 1)) .and. &
             zr(2) == cmplx(real(2 * rank + 2), -real(2 * rank + 2)), 'MPI_Scatter: 2 COMPLEX to each rank')

  ! MPI_Scatterv of INTEGER from the last rank: rank r gets r+1 values 100 r + k
  do i = 0, np - 1
    scounts(i + 1) = i + 1
    sdispls(i + 1) = 8 * i
    if (rank == root) ig(8 * i + 1:8 * i + 8) = [(100 * i + k, k = 1, 8)]
  end do
  ia = -1
  call MPI_Scatterv(ig, scounts, sdispls, MPI_INTEGER, ia, rank + 1, MPI_INTEGER, root, MPI_COMM_WORLD)
  call mt_ok(all(ia(1:rank + 1) == [(100 * rank + k, k = 1, rank + 1)]) .and. all(ia(rank + 2:) == -1), &
             'MPI_Scatterv: r+1 INTEGERs 100 r + k from their displacement, the rest untouched')

  ! MPI_Allgather of LOGICAL: rank r sends "r is even"
  lg = .false.
  call MPI_Allgather(mod(rank, 2) == 0, 1, MPI_LOGICAL, lg, 1, MPI_LOGICAL, MPI_COMM_WORLD)
  call mt_ok(all(lg .eqv. [(mod(i, 2) == 0, i = 0, np - 1)]), 'MPI_Allgather of LOGICAL: "r is even" of each rank')

  ! MPI_Allgatherv of DOUBLE PRECISION: rank r sends r+1 values r / 4 + k, packed
  do i = 1, np
    counts(i) = i
    displs(i) = (i - 1) * i / 2
  end do
  d = [(rank / 4d0 + k, k = 1, 4)]
  dg = -1d0
  call MPI_Allgatherv(d, rank + 1, MPI_DOUBLE_PRECISION, dg, counts, displs, MPI_DOUBLE_PRECISION, &
                      MPI_COMM_WORLD, ierr)
  ok = ierr == MPI_SUCCESS
  do i = 0, np - 1
    ok = ok .and. all(dg(displs(i + 1) + 1:displs(i + 1) + i + 1) == [(i / 4d0 + k, k = 1, i + 1)])
  end do
  call mt_ok(ok, 'MPI_Allgatherv: r+1 DOUBLE PRECISION r/4 + k of each rank r, packed')

  ! MPI_Alltoall of INTEGER: rank r sends 100 r + j to rank j
  ig(1:np) = [(100 * rank + j, j = 0, np - 1)]
  ib = -1
  call MPI_Alltoall(ig, 1, MPI_INTEGER, ib, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call mt_ok(all(ib(1:np) == [(100 * i + rank, i = 0, np - 1)]), 'MPI_Alltoall: 100 i + r from each rank i')

  ! MPI_Alltoallv: rank r sends j+1 INTEGERs 1000 r + 10 j + k to rank j, and
  ! gets r+1 from each rank i at 2 (r+1) i
  ig = -1
  do j = 0, np - 1
    scounts(j + 1) = j + 1
    sdispls(j + 1) = 4 * j
    ig(4 * j + 1:4 * j + j + 1) = [(1000 * rank + 10 * j + k, k = 1, j + 1)]
    rcounts(j + 1) = rank + 1
    rdispls(j + 1) = 2 * (rank + 1) * j
  end do
  allocate (i2(2 * (rank + 1), np))
  i2 = -1
  call MPI_Alltoallv(ig, scounts, sdispls, MPI_INTEGER, i2, rcounts, rdispls, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  ok = ierr == MPI_SUCCESS
  do i = 0, np - 1
    ok = ok .and. all(i2(1:rank + 1, i + 1) == [(1000 * i + 10 * rank + k, k = 1, rank + 1)]) .and. &
         all(i2(rank + 2:, i + 1) == -1)
  end do
  call mt_ok(ok, 'MPI_Alltoallv: r+1 INTEGERs 1000 i + 10 r + k from each rank i at its displacement')

  ! MPI_Alltoallw: to each rank j two INTEGERs (MPI_INTEGER, count 2, byte
  ! displacement 8 j), received as one MPI_Type_contiguous(2, MPI_INTEGER)
  ! at byte displacement 12 i (a gap of one INTEGER)
  call MPI_Type_contiguous(2, MPI_INTEGER, tpair)
  call MPI_Type_commit(tpair)
  do j = 0, np - 1
    ig(2 * j + 1:2 * j + 2) = [10 * rank + j, -(10 * rank + j)]
    scounts(j + 1) = 2
    sdispls(j + 1) = 8 * j
    stypes(j + 1) = MPI_INTEGER
    rcounts(j + 1) = 1
    rdispls(j + 1) = 12 * j
    rtypes(j + 1) = tpair
  end do
  ig(2 * np + 1:) = -1
  ib = -1
  deallocate (i2)
  allocate (i2(3, np))
  i2 = -1
  call MPI_Alltoallw(ig, scounts, sdispls, stypes, i2, rcounts, rdispls, rtypes, MPI_COMM_WORLD)
  ok = .true.
  do i = 0, np - 1
    ok = ok .and. all(i2(:, i + 1) == [10 * i + rank, -(10 * i + rank), -1])
  end do
  call mt_ok(ok, 'MPI_Alltoallw: (10 i + r, -(10 i + r)) from each rank i, by MPI_INTEGER x 2 and a 2-INTEGER type')
  call MPI_Type_free(tpair)

  ! MPI_Reduce to the last rank: DOUBLE PRECISION sum, INTEGER product, REAL max
  dsum = -1d0
  call MPI_Reduce(rank + 0.5d0, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD)
  iprod = -1
  call MPI_Reduce(rank + 1, iprod, 1, MPI_INTEGER, MPI_PROD, root, MPI_COMM_WORLD, ierr)
  rs(1:3) = [real(rank), -real(rank), 0.25]
  rr = 0.0
  call MPI_Reduce(rs, rr, 3, MPI_REAL, MPI_MAX, root, MPI_COMM_WORLD)
  if (rank == root) then
    call mt_is_dbl(dsum, np * (np - 1) / 2d0 + np * 0.5d0, 'MPI_Reduce: MPI_SUM of r + 0.5 (DOUBLE PRECISION)')
    nexp = 1
    do i = 1, np
      nexp = nexp * i
    end do
    call mt_is_int(iprod, nexp, 'MPI_Reduce: MPI_PROD of r + 1 (INTEGER) is np!')
    call mt_ok(all(rr == [real(np - 1), 0.0, 0.25]), 'MPI_Reduce: MPI_MAX of REALs (r, -r, 0.25)')
  else
    call mt_ok(dsum == -1d0 .and. iprod == -1, 'MPI_Reduce: a non-root''s recvbuf is untouched')
  end if

  ! MPI_Allreduce: COMPLEX sum; LOGICAL LAND, LOR, LXOR; MPI_2INTEGER
  ! MAXLOC/MINLOC; INTEGER with MPI_IN_PLACE
  z = [cmplx(real(rank), 1.0), cmplx(-2.0 * rank, 0.5)]
  call MPI_Allreduce(z, zr, 2, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD)
  call mt_ok(zr(1) == cmplx(real(np * (np - 1) / 2), real(np)) .and. &
             zr(2) == cmplx(-real(np * (np - 1)), 0.5 * np), 'MPI_Allreduce: MPI_SUM of COMPLEX (r, 1), (-2r, 0.5)')
  l3 = [.true., rank == 0, mod(rank, 2) == 1]
  call MPI_Allreduce(l3, lland, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
  call MPI_Allreduce(l3, llor, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(l3, llxor, 3, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD)
  ! odd ranks: np / 2 of them
  call mt_ok(all(lland .eqv. [.true., np == 1, .false.]), 'MPI_Allreduce: MPI_LAND of (T, r == 0, r odd)')
  call mt_ok(ierr == MPI_SUCCESS .and. all(llor .eqv. [.true., .true., np > 1]), &
             'MPI_Allreduce: MPI_LOR of (T, r == 0, r odd)')
  call mt_ok(all(llxor .eqv. [mod(np, 2) == 1, .true., mod(np / 2, 2) == 1]), &
             'MPI_Allreduce: MPI_LXOR of (T, r == 0, r odd)')
  ! value (r + 1) mod 2 (ties: the lowest rank wins), location r
  pair = [mod(rank + 1, 2), rank]
  call MPI_Allreduce(pair, maxl, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD)
  call MPI_Allreduce(pair, minl, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD)
  call mt_ok(all(maxl == [1, 0]), 'MPI_Allreduce: MPI_MAXLOC of MPI_2INTEGER (value 1, lowest rank 0)')
  if (np > 1) then
    call mt_ok(all(minl == [0, 1]), 'MPI_Allreduce: MPI_MINLOC of MPI_2INTEGER (value 0, lowest rank 1)')
  else
    call mt_ok(all(minl == [1, 0]), 'MPI_Allreduce: MPI_MINLOC of MPI_2INTEGER (one rank)')
  end if
  ia(1:3) = [rank, 1, -rank * rank]
  call MPI_Allreduce(MPI_IN_PLACE, ia, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  isum = 0
  do i = 0, np - 1
    isum = isum + i * i
  end do
  call mt_ok(ierr == MPI_SUCCESS .and. all(ia(1:3) == [np * (np - 1) / 2, np, -isum]), &
             'MPI_Allreduce with MPI_IN_PLACE: MPI_SUM of (r, 1, -r^2)')

  ! MPI_Reduce_scatter: rank i gets i+1 of the sums of k + r
  n = np * (np + 1) / 2
  do i = 1, np
    counts(i) = i
  end do
  ig(1:n) = [(k + rank, k = 1, n)]
  ib = -1
  call MPI_Reduce_scatter(ig, ib, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  e1 = rank * (rank + 1) / 2
  call mt_ok(all(ib(1:rank + 1) == [(np * (e1 + k) + np * (np - 1) / 2, k = 1, rank + 1)]) .and. &
             all(ib(rank + 2:) == -1), 'MPI_Reduce_scatter: r+1 INTEGER sums of k + i over ranks i')
  ! MPI_Reduce_scatter_block: 2 each, DOUBLE PRECISION MPI_MAX of r k
  dg(1:2 * np) = [(rank * real(k, kind(1d0)), k = 1, 2 * np)]
  d = -1d0
  call MPI_Reduce_scatter_block(dg, d, 2, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(d == [(np - 1) * (2d0 * rank + 1), (np - 1) * (2d0 * rank + 2), -1d0, -1d0]), &
             'MPI_Reduce_scatter_block: 2 DOUBLE PRECISION MPI_MAX of i k over ranks i')

  ! MPI_Scan and MPI_Exscan of INTEGER r + 1 (sum) and REAL (r + 1) / 2 (product)
  call MPI_Scan(rank + 1, n, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call mt_is_int(n, (rank + 1) * (rank + 2) / 2, 'MPI_Scan: MPI_SUM of i + 1 over ranks i <= r')
  call MPI_Scan((rank + 1) / 2.0, rr(1), 1, MPI_REAL, MPI_PROD, MPI_COMM_WORLD, ierr)
  rs(1) = 1.0
  do i = 0, rank
    rs(1) = rs(1) * (i + 1) / 2.0
  end do
  call mt_ok(ierr == MPI_SUCCESS .and. rr(1) == rs(1), 'MPI_Scan: MPI_PROD of REAL (i + 1) / 2 over ranks i <= r')
  n = -7
  call MPI_Exscan(rank + 1, n, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) then
    call mt_is_int(n, rank * (rank + 1) / 2, 'MPI_Exscan: MPI_SUM of i + 1 over ranks i < r')
  else
    call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Exscan on rank 0 (recvbuf undefined)')
  end if

  ! nonblocking: MPI_Ibcast, MPI_Iallreduce, MPI_Ialltoall, one MPI_Waitall
  nb_b = -1
  if (rank == 0) nb_b = [4, 3, 2, 1]
  nb_d = [rank + 1d0, 0.5d0]
  nb_as = [(10 * rank + j, j = 0, 7)]
  nb_ar = -1
  call MPI_Ibcast(nb_b, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1))
  call MPI_Iallreduce(MPI_IN_PLACE, nb_d, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, reqs(2), ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Iallreduce (MPI_IN_PLACE) starts')
  if (np <= 8) then
    call MPI_Ialltoall(nb_as, 1, MPI_INTEGER, nb_ar, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(3))
  else
    reqs(3) = MPI_REQUEST_NULL
  end if
  call MPI_Waitall(3, reqs, sts, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(reqs == MPI_REQUEST_NULL), &
             'MPI_Waitall: the 3 requests are MPI_REQUEST_NULL (elemental ==)')
  call mt_ok(all(nb_b == [4, 3, 2, 1]), 'MPI_Ibcast: 4 INTEGERs from rank 0')
  call mt_ok(all(nb_d == [np * (np + 1) / 2d0, 0.5d0 * np]), 'MPI_Iallreduce: MPI_SUM of (r + 1, 0.5)')
  if (np <= 8) call mt_ok(all(nb_ar(1:np) == [(10 * i + rank, i = 0, np - 1)]) .and. all(nb_ar(np + 1:) == -1), &
                          'MPI_Ialltoall: 10 i + r from each rank i')

  ! ================================================================ communicators
  ! colour r mod 2, key -r: each colour in reverse rank order
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, split, ierr)
  call MPI_Comm_rank(split, i)
  call MPI_Comm_size(split, n)
  c0 = mod(rank, 2)
  nexp = (np - c0 + 1) / 2
  call mt_ok(ierr == MPI_SUCCESS .and. split /= MPI_COMM_NULL, 'MPI_Comm_split: a communicator')
  call mt_is_int(n, nexp, 'MPI_Comm_split: size of colour r mod 2')
  ! members c0, c0+2, ...; key -r puts the highest first
  call mt_is_int(i, (np - 1 - rank) / 2, 'MPI_Comm_split: key -r orders the colour by falling world rank')
  call MPI_Allreduce(rank, isum, 1, MPI_INTEGER, MPI_SUM, split)
  nexp = 0
  do j = c0, np - 1, 2
    nexp = nexp + j
  end do
  call mt_is_int(isum, nexp, 'MPI_Allreduce on the split communicator: the sum of its world ranks')
  call MPI_Comm_free(split)
  ! MPI_UNDEFINED on rank 0: MPI_COMM_NULL there; key 0 keeps world order elsewhere
  if (rank == 0) then
    call MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, split2)
    call mt_ok(split2 == MPI_COMM_NULL, 'MPI_Comm_split with MPI_UNDEFINED: MPI_COMM_NULL')
  else
    call MPI_Comm_split(MPI_COMM_WORLD, 5, 0, split2)
    call MPI_Comm_rank(split2, i)
    call MPI_Comm_size(split2, n)
    call mt_ok(i == rank - 1 .and. n == np - 1, 'MPI_Comm_split, equal keys: world order without rank 0')
    call MPI_Comm_free(split2)
  end if

  ! ================================================================ Cartesian topologies
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  select case (np)
  case (1)
    dims2 = [1, 1]
  case (2)
    dims2 = [2, 1]
  case (3)
    dims2 = [3, 1]
  case (4)
    dims2 = [2, 2]
  case default
    dims2 = dims
  end select
  call mt_ok(ierr == MPI_SUCCESS .and. all(dims == dims2) .and. dims(1) * dims(2) == np, &
             'MPI_Dims_create(np, 2): balanced, falling order')
  dims2 = [0, 1]
  call MPI_Dims_create(np, 2, dims2)
  call mt_ok(all(dims2 == [np, 1]), 'MPI_Dims_create with dims(2) = 1 fixed: (np, 1)')
  ! dimension 1 not periodic, dimension 2 periodic; no reordering
  periods = [.false., .true.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. cart /= MPI_COMM_NULL, 'MPI_Cart_create: a communicator')
  call MPI_Topo_test(cart, tstat)
  call mt_is_int(tstat, MPI_CART, 'MPI_Topo_test: MPI_CART')
  call MPI_Cartdim_get(cart, n)
  call mt_is_int(n, 2, 'MPI_Cartdim_get: 2')
  call MPI_Cart_get(cart, 2, dims2, per2, coords2)
  c0 = rank / dims(2)
  c1 = mod(rank, dims(2))
  call mt_ok(all(dims2 == dims) .and. all(per2 .eqv. periods) .and. all(coords2 == [c0, c1]), &
             'MPI_Cart_get: dims, LOGICAL periods, row-major coordinates')
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(coords == [c0, c1]), 'MPI_Cart_coords: (r / dims(2), r mod dims(2))')
  call MPI_Cart_rank(cart, coords, n)
  call mt_is_int(n, rank, 'MPI_Cart_rank of its coordinates: its rank')
  call MPI_Cart_rank(cart, [c0, c1 + dims(2)], n, ierr)
  call mt_is_int(n, rank, 'MPI_Cart_rank wraps a coordinate of the periodic dimension')
  ! direction 0 (not periodic): MPI_PROC_NULL beyond the edges
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  e1 = MPI_PROC_NULL
  e2 = MPI_PROC_NULL
  if (c0 > 0) e1 = (c0 - 1) * dims(2) + c1
  if (c0 < dims(1) - 1) e2 = (c0 + 1) * dims(2) + c1
  call mt_ok(src == e1 .and. dst == e2, 'MPI_Cart_shift along the non-periodic dimension (MPI_PROC_NULL at the edges)')
  if (c0 == 0) call mt_is_int(src, MPI_PROC_NULL, 'MPI_Cart_shift: source MPI_PROC_NULL at the first row')
  if (c0 == dims(1) - 1) call mt_is_int(dst, MPI_PROC_NULL, 'MPI_Cart_shift: dest MPI_PROC_NULL at the last row')
  ! direction 1 (periodic), displacement -1
  call MPI_Cart_shift(cart, 1, -1, src, dst, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. src == c0 * dims(2) + mod(c1 + 1, dims(2)) .and. &
             dst == c0 * dims(2) + mod(c1 - 1 + dims(2), dims(2)), 'MPI_Cart_shift by -1 along the periodic dimension wraps')
  ! a Sendrecv along it with MPI_PROC_NULL: nothing arrives at the edge
  n = -1
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, dst, 3, n, 1, MPI_INTEGER, src, 3, cart, st)
  if (src == MPI_PROC_NULL) then
    call mt_ok(n == -1 .and. st%MPI_SOURCE == MPI_PROC_NULL .and. st%MPI_TAG == MPI_ANY_TAG, &
               'MPI_Sendrecv from MPI_PROC_NULL: buffer untouched, status source MPI_PROC_NULL, tag MPI_ANY_TAG')
  else
    call mt_ok(n == src .and. st%MPI_SOURCE == src .and. st%MPI_TAG == 3, &
               'MPI_Sendrecv along the Cartesian shift: the source''s rank')
  end if
  ! MPI_Cart_sub: keep dimension 1 (a column of the grid), then dimension 2
  lremain = [.true., .false.]
  call MPI_Cart_sub(cart, lremain, sub0, ierr)
  call MPI_Comm_rank(sub0, i)
  call MPI_Comm_size(sub0, n)
  call mt_ok(ierr == MPI_SUCCESS .and. i == c0 .and. n == dims(1), &
             'MPI_Cart_sub(T, F): size dims(1), rank its first coordinate')
  call MPI_Allreduce(rank, isum, 1, MPI_INTEGER, MPI_SUM, sub0)
  call mt_is_int(isum, dims(2) * dims(1) * (dims(1) - 1) / 2 + dims(1) * c1, &
                 'MPI_Allreduce on MPI_Cart_sub(T, F): the sum of the world ranks of its column')
  call MPI_Cartdim_get(sub0, n)
  call mt_is_int(n, 1, 'MPI_Cart_sub(T, F) is a 1-D Cartesian communicator')
  call MPI_Cart_sub(cart, [.false., .true.], sub1)
  call MPI_Comm_rank(sub1, i)
  call MPI_Comm_size(sub1, n)
  call mt_ok(i == c1 .and. n == dims(2), 'MPI_Cart_sub(F, T): size dims(2), rank its second coordinate')
  call MPI_Comm_free(sub0)
  call MPI_Comm_free(sub1)
  call MPI_Comm_free(cart, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. cart == MPI_COMM_NULL, 'MPI_Comm_free of the Cartesian communicator')

  ! ================================================================ derived types of Fortran arrays
  ! a(i, j) = 100 r + 10 i + j on rank r; each rank sends to r+1 and gets from r-1
  dst = mod(rank + 1, np)
  src = mod(rank - 1 + np, np)
  do j = 1, 5
    do i = 1, 4
      a(i, j) = 100 * rank + 10 * i + j
    end do
  end do
  ! the 2x3 block a(2:3, 3:5): zero-based starts (1, 2), Fortran order
  call MPI_Type_create_subarray(2, [4, 5], [2, 3], [1, 2], MPI_ORDER_FORTRAN, MPI_INTEGER, tsub, ierr)
  call MPI_Type_commit(tsub)
  call MPI_Type_size(tsub, n)
  call MPI_Type_get_extent(tsub, lb, ext)
  call mt_ok(ierr == MPI_SUCCESS .and. n == 24 .and. lb == 0 .and. ext == 80, &
             'MPI_Type_create_subarray (2x3 of 4x5 INTEGER): size 24, lb 0, extent 80 (the whole array)')
  cbuf = -1
  call MPI_Sendrecv(a, 1, tsub, dst, 1, cbuf, 6, MPI_INTEGER, src, 1, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  k = 100 * src
  call mt_ok(all(cbuf == k + [23, 33, 24, 34, 25, 35]) .and. n == 6, &
             'subarray a(2:3, 3:5) received contiguous: a(2,3), a(3,3), a(2,4) ... (Fortran order), count 6')
  ! and received into a subarray of b: only b(2:3, 3:5) is written
  b = -1
  call MPI_Sendrecv(cbuf, 6, MPI_INTEGER, dst, 2, b, 1, tsub, src, 2, MPI_COMM_WORLD, st)
  ! rank r now holds the block of rank r-2 (what r-1 received and passed on)
  k = 100 * mod(rank - 2 + 2 * np, np)
  ok = all(b(2:3, 3:5) == reshape(k + [23, 33, 24, 34, 25, 35], [2, 3])) .and. all(b(1, :) == -1) .and. &
       all(b(4, :) == -1) .and. all(b(2:3, 1:2) == -1)
  call mt_ok(ok, 'contiguous INTEGERs received by the subarray type: b(2:3, 3:5) only')
  call MPI_Type_free(tsub)

  ! a column a(:, 4): MPI_Type_contiguous(4) from a(1, 4), received as the section
  call MPI_Type_contiguous(4, MPI_INTEGER, tcol)
  call MPI_Type_commit(tcol)
  b = -1
  call MPI_Sendrecv(a(1, 4), 1, tcol, dst, 4, b(:, 2), 4, MPI_INTEGER, src, 4, MPI_COMM_WORLD, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(b(:, 2) == 100 * src + [14, 24, 34, 44]) .and. all(b(:, 1) == -1) .and. &
             all(b(:, 3:) == -1), 'a column a(:, 4) by MPI_Type_contiguous from a(1, 4), into the section b(:, 2)')
  call MPI_Type_free(tcol)
  ! a row a(3, :): MPI_Type_vector(5, 1, 4) from a(3, 1), received contiguous
  call MPI_Type_vector(5, 1, 4, MPI_INTEGER, trow)
  call MPI_Type_commit(trow)
  row = -1
  call MPI_Sendrecv(a(3, 1), 1, trow, dst, 5, row, 5, MPI_INTEGER, src, 5, MPI_COMM_WORLD, st)
  call mt_ok(all(row == 100 * src + [31, 32, 33, 34, 35]), 'a row a(3, :) by MPI_Type_vector(5, 1, 4) from a(3, 1)')
  ! and a row received by the vector type into b(2, :), sent as the section a(4, :)
  b = -1
  call MPI_Sendrecv(a(4, :), 5, MPI_INTEGER, dst, 6, b(2, 1), 1, trow, src, 6, MPI_COMM_WORLD, st)
  call mt_ok(all(b(2, :) == 100 * src + [41, 42, 43, 44, 45]) .and. all(b(1, :) == -1) .and. all(b(3:, :) == -1), &
             'the section a(4, :) received by MPI_Type_vector(5, 1, 4) at b(2, 1): row 2 only')
  ! two columns a(:, 2:3) by MPI_Type_vector(2, 4, 4)
  call MPI_Type_vector(2, 4, 4, MPI_INTEGER, tvec)
  call MPI_Type_commit(tvec)
  ig(1:8) = -1
  call MPI_Sendrecv(a(1, 2), 1, tvec, dst, 7, ig, 8, MPI_INTEGER, src, 7, MPI_COMM_WORLD, st)
  call mt_ok(all(ig(1:8) == 100 * src + [12, 22, 32, 42, 13, 23, 33, 43]), &
             'two columns a(:, 2:3) by MPI_Type_vector(2, 4, 4) from a(1, 2)')
  call MPI_Type_free(tvec)
  call MPI_Type_free(trow)

  ! MPI_Type_create_resized + MPI_Gather: rank r's 4 INTEGERs 10 r + k go to
  ! row r+1 of imat(np, 4) at rank 0 (column-interleaved: stride np)
  call MPI_Type_vector(4, 1, np, MPI_INTEGER, trow)
  call MPI_Type_create_resized(trow, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND, trow1, ierr)
  call MPI_Type_commit(trow1)
  call MPI_Type_get_extent(trow1, lb, ext)
  call MPI_Type_size(trow1, n)
  call mt_ok(ierr == MPI_SUCCESS .and. lb == 0 .and. ext == 4 .and. n == 16, &
             'MPI_Type_create_resized of MPI_Type_vector(4, 1, np): lb 0, extent 4, size 16')
  col = [(10 * rank + k, k = 1, 4)]
  imat = -1
  call MPI_Gather(col, 4, MPI_INTEGER, imat, 1, trow1, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    ok = .true.
    do i = 0, np - 1
      ok = ok .and. all(imat(i + 1, :) == [(10 * i + k, k = 1, 4)])
    end do
    call mt_ok(ok, 'MPI_Gather into the resized type: row r+1 of imat(np, 4) is rank r''s 10 r + k')
  end if
  ! and back: MPI_Scatter of the rows from the interleaved matrix
  if (rank == 0) imat = -imat
  col = 0
  call MPI_Scatter(imat, 1, trow1, col, 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call mt_ok(all(col == [(-(10 * rank + k), k = 1, 4)]), 'MPI_Scatter from the resized type: row r+1 to rank r')
  call MPI_Type_free(trow1)
  call MPI_Type_free(trow)

  call mt_done()
  call MPI_Finalize()
end program f08_coll
