! io_datarep.f90 - the mpi module (use mpi), 2 ranks: MPI_REGISTER_DATAREP
! with conversion and extent functions written in Fortran (MPI-3.1
! 13.5.3). "rd_add" adds its extra state (1000) to each INTEGER on the
! way to the file and takes it off on the way back; written through an
! interleaving view (each rank every np-th INTEGER) and read back through
! it and through a "native" view, exact values. The callbacks get the
! datatype's Fortran handle (MPI_INTEGER), the extra state, counts and
! positions in data items that follow each other; their IERROR becomes
! MPI_ERR_CONVERSION of the access. The extent function gives
! MPI_FILE_GET_TYPE_EXTENT its value; one giving another size than
! memory's makes MPI_FILE_SET_VIEW fail with MPI_ERR_UNSUPPORTED_DATAREP,
! one returning an error that error. MPI_CONVERSION_FN_NULL for the read
! ("rd_swapw": the file holds each INTEGER's bytes reversed, read back as
! they are) and for the write direction ("rd_swapr"). MPI_ERR_DUP_DATAREP
! for a name taken (also with trailing blanks, and "native"), MPI_ERR_ARG
! for a blank one and for MPI_CONVERSION_FN_NULL as the extent function. fortran.sh also builds it on mpif.h. The file is made
! in the current directory.
program io_datarep
  use mpi
  implicit none
  external dr_add_r, dr_add_w, dr_ext, dr_ext2, dr_swap_r, dr_swap_w
  integer, external :: dr_bswap
  integer, parameter :: n = 8
  integer :: ierr, rank, np, i, r, k, fh, ftype, etype2, ftype2, cnt, c0
  integer :: buf(n), got(n), whole(4 * n), st(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: extra, ext
  integer(kind=MPI_OFFSET_KIND) :: disp
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  character(len=12) :: padded
  logical :: okay
  ! what the callbacks saw: calls of read, write, extent; data items read,
  ! written; calls with a wrong datatype, extra state or position; fail:
  ! 1 makes the write function, 2 the read function return MPI_ERR_OTHER
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail

  call mt_start(rank, np)
  dr_calls = 0
  dr_items = 0
  dr_bad = 0
  dr_fail = 0
  dr_extra = 1000

  ! ---- registration: the name's trailing blanks are not part of it
  padded = 'rd_add'
  extra = 1000
  call MPI_REGISTER_DATAREP(padded, dr_add_r, dr_add_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REGISTER_DATAREP "rd_add" of Fortran functions')
  call MPI_REGISTER_DATAREP('rd_add', dr_add_r, dr_add_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_ERR_DUP_DATAREP, 'MPI_REGISTER_DATAREP "rd_add" again: MPI_ERR_DUP_DATAREP')
  call MPI_REGISTER_DATAREP('rd_add   ', dr_add_r, dr_add_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_ERR_DUP_DATAREP, 'MPI_REGISTER_DATAREP "rd_add   ": the same name, MPI_ERR_DUP_DATAREP')
  call MPI_REGISTER_DATAREP('native', dr_add_r, dr_add_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_ERR_DUP_DATAREP, 'MPI_REGISTER_DATAREP "native": MPI_ERR_DUP_DATAREP')
  call MPI_REGISTER_DATAREP('   ', dr_add_r, dr_add_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_ERR_ARG, 'MPI_REGISTER_DATAREP of a blank name: MPI_ERR_ARG')
  call MPI_REGISTER_DATAREP('rd_noext', dr_add_r, dr_add_w, MPI_CONVERSION_FN_NULL, extra, ierr)
  call mt_is_int(ierr, MPI_ERR_ARG, 'MPI_REGISTER_DATAREP with MPI_CONVERSION_FN_NULL as the extent function: MPI_ERR_ARG')

  call MPI_FILE_OPEN(MPI_COMM_WORLD, 'io_fdrep.dat', ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FILE_OPEN')
  ! each rank's INTEGERs every np-th in the file, from its rank's place
  call MPI_TYPE_CREATE_RESIZED(MPI_INTEGER, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND * np, ftype, ierr)
  call MPI_TYPE_COMMIT(ftype, ierr)
  disp = 4 * rank
  call MPI_FILE_SET_VIEW(fh, disp, MPI_INTEGER, ftype, 'rd_add', MPI_INFO_NULL, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. dr_bad == 0, &
             'MPI_FILE_SET_VIEW "rd_add", an interleaving filetype (the extent function asked of MPI_INTEGER)')
  call MPI_FILE_GET_VIEW(fh, disp, etype2, ftype2, rep, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. rep == 'rd_add' .and. disp == 4 * rank, &
             'MPI_FILE_GET_VIEW: displacement and the datarep "rd_add"')
  call MPI_TYPE_FREE(ftype2, ierr)
  c0 = dr_calls(3)
  ext = -1
  call MPI_FILE_GET_TYPE_EXTENT(fh, MPI_INTEGER, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ext == 4 .and. dr_calls(3) == c0 + 1 .and. dr_bad == 0, &
             'MPI_FILE_GET_TYPE_EXTENT of MPI_INTEGER: 4, from one call of the extent function')

  ! ---- write through the view: the file gets each value + 1000
  do i = 1, n
    buf(i) = rank * 100 + i
  end do
  dr_next = 0
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
  call mt_ok(cnt == n .and. dr_calls(2) >= 1 .and. dr_items(2) == n .and. dr_bad == 0, &
             'MPI_FILE_WRITE_AT through "rd_add": the write function converted the 8 INTEGERs in order')
  call mt_ok(all(buf == [(rank * 100 + i, i = 1, n)]), 'the write function left the buffer alone')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  got = -1
  dr_next = 0
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == buf) .and. dr_items(1) == n .and. dr_bad == 0, &
             'MPI_FILE_READ_AT through "rd_add": the read function gives back the values written')

  ! ---- the file itself, through a native view: value + 1000, interleaved
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  whole = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, whole, n * np, MPI_INTEGER, st, ierr)
  okay = ierr == MPI_SUCCESS
  do r = 0, np - 1
    do i = 1, n
      okay = okay .and. whole((i - 1) * np + r + 1) == r * 100 + i + 1000
    end do
  end do
  call mt_ok(okay, 'the file, read through a "native" view: every rank''s values + 1000, interleaved')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr) ! all have read before the file changes

  ! ---- a conversion function's IERROR fails the access: MPI_ERR_CONVERSION
  call MPI_FILE_SET_VIEW(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd_add', MPI_INFO_NULL, ierr)
  dr_fail = 1
  dr_next = 0
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call mt_is_int(ierr, MPI_ERR_CONVERSION, 'the write function returns MPI_ERR_OTHER: MPI_FILE_WRITE_AT fails, MPI_ERR_CONVERSION')
  dr_fail = 2
  dr_next = 0
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_is_int(ierr, MPI_ERR_CONVERSION, 'the read function returns MPI_ERR_OTHER: MPI_FILE_READ_AT fails, MPI_ERR_CONVERSION')
  dr_fail = 0

  ! ---- the extent function's value and error reach the library
  extra = 2
  call MPI_REGISTER_DATAREP('rd_wide', dr_add_r, dr_add_w, dr_ext2, extra, ierr)
  extra = -1
  call MPI_REGISTER_DATAREP('rd_badext', dr_add_r, dr_add_w, dr_ext2, extra, ierr)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'rd_wide', MPI_INFO_NULL, ierr)
  call mt_is_int(ierr, MPI_ERR_UNSUPPORTED_DATAREP, &
                 'an extent function giving 8 bytes for MPI_INTEGER: MPI_FILE_SET_VIEW fails, MPI_ERR_UNSUPPORTED_DATAREP')
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'rd_badext', MPI_INFO_NULL, ierr)
  call mt_is_int(ierr, MPI_ERR_OTHER, 'an extent function returning MPI_ERR_OTHER: MPI_FILE_SET_VIEW fails with it')
  call MPI_FILE_GET_VIEW(fh, disp, etype2, ftype2, rep, ierr)
  call mt_ok(rep == 'rd_add', 'the failed views left the file''s view "rd_add"')
  call MPI_TYPE_FREE(ftype2, ierr)

  ! ---- MPI_CONVERSION_FN_NULL: reading takes the file's bytes as they are
  extra = 0
  call MPI_REGISTER_DATAREP('rd_swapw', MPI_CONVERSION_FN_NULL, dr_swap_w, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REGISTER_DATAREP "rd_swapw", MPI_CONVERSION_FN_NULL to read')
  call MPI_REGISTER_DATAREP('rd_swapr', dr_swap_r, MPI_CONVERSION_FN_NULL, dr_ext, extra, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_REGISTER_DATAREP "rd_swapr", MPI_CONVERSION_FN_NULL to write')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SET_VIEW(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd_swapw', MPI_INFO_NULL, ierr)
  c0 = dr_calls(1)
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_FILE_WRITE_AT through "rd_swapw"')
  got = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == [(dr_bswap(buf(i)), i = 1, n)]) .and. dr_calls(1) == c0, &
             'read back through "rd_swapw": the bytes reversed, no read function called')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  whole = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, whole, n * np, MPI_INTEGER, st, ierr)
  okay = ierr == MPI_SUCCESS
  do r = 0, np - 1
    do i = 1, n
      okay = okay .and. whole((i - 1) * np + r + 1) == dr_bswap(r * 100 + i)
    end do
  end do
  call mt_ok(okay, 'the file through a "native" view: every value''s bytes reversed')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)

  ! ---- and MPI_CONVERSION_FN_NULL to write: native bytes in the file
  call MPI_FILE_SET_VIEW(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd_swapr', MPI_INFO_NULL, ierr)
  c0 = dr_calls(2)
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. dr_calls(2) == c0, 'MPI_FILE_WRITE_AT through "rd_swapr": no write function called')
  got = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == [(dr_bswap(buf(i)), i = 1, n)]), &
             'read back through "rd_swapr": the read function reversed the bytes')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  whole = -1
  call MPI_FILE_READ_AT(fh, 0_MPI_OFFSET_KIND, whole, n * np, MPI_INTEGER, st, ierr)
  okay = ierr == MPI_SUCCESS
  do r = 0, np - 1
    do k = 1, n
      okay = okay .and. whole((k - 1) * np + r + 1) == r * 100 + k
    end do
  end do
  call mt_ok(okay, 'the file through a "native" view: every value as it is in memory')
  call mt_ok(dr_bad == 0, 'every callback got MPI_INTEGER, its extra state and positions in order')

  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_TYPE_FREE(ftype, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_FILE_DELETE('io_fdrep.dat', MPI_INFO_NULL, ierr)
  call mt_done()
  call MPI_FINALIZE(ierr)
end program io_datarep

! an INTEGER's 4 bytes in the other order
integer function dr_bswap(x)
  implicit none
  integer, intent(in) :: x
  integer :: k
  dr_bswap = 0
  do k = 0, 3
    call mvbits(x, 8 * k, 8, dr_bswap, 8 * (3 - k))
  end do
end function dr_bswap

! the checks every conversion function makes: MPI_INTEGER, the extra
! state registered, a position where the last call ended (dr_next)
subroutine dr_check(datatype, count, position, extra_state, expect_extra)
  use mpi
  implicit none
  integer :: datatype, count
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, expect_extra
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  if (datatype /= MPI_INTEGER .or. extra_state /= expect_extra .or. position /= dr_next .or. count < 1) &
    dr_bad = dr_bad + 1
  dr_next = position + count
end subroutine dr_check

subroutine dr_add_w(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  dr_calls(2) = dr_calls(2) + 1
  call dr_check(datatype, count, position, extra_state, dr_extra)
  if (dr_fail == 1) then
    ierror = MPI_ERR_OTHER
    return
  end if
  do i = 1, count
    filebuf(i) = userbuf(position + i) + int(extra_state)
  end do
  dr_items(2) = dr_items(2) + count
  ierror = MPI_SUCCESS
end subroutine dr_add_w

subroutine dr_add_r(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  dr_calls(1) = dr_calls(1) + 1
  call dr_check(datatype, count, position, extra_state, dr_extra)
  if (dr_fail == 2) then
    ierror = MPI_ERR_OTHER
    return
  end if
  do i = 1, count
    userbuf(position + i) = filebuf(i) - int(extra_state)
  end do
  dr_items(1) = dr_items(1) + count
  ierror = MPI_SUCCESS
end subroutine dr_add_r

subroutine dr_swap_w(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer, external :: dr_bswap
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  dr_calls(2) = dr_calls(2) + 1
  if (datatype /= MPI_INTEGER .or. extra_state /= 0) dr_bad = dr_bad + 1
  do i = 1, count
    filebuf(i) = dr_bswap(userbuf(position + i))
  end do
  ierror = MPI_SUCCESS
end subroutine dr_swap_w

subroutine dr_swap_r(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer, external :: dr_bswap
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  dr_calls(1) = dr_calls(1) + 1
  if (datatype /= MPI_INTEGER .or. extra_state /= 0) dr_bad = dr_bad + 1
  do i = 1, count
    userbuf(position + i) = dr_bswap(filebuf(i))
  end do
  ierror = MPI_SUCCESS
end subroutine dr_swap_r

! the file extent of a basic type: its size in memory
subroutine dr_ext(datatype, extent, extra_state, ierror)
  use mpi
  implicit none
  integer :: datatype, ierror, sz
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  integer(kind=MPI_OFFSET_KIND) :: dr_next
  integer(kind=MPI_ADDRESS_KIND) :: dr_extra
  integer :: dr_calls(3), dr_items(2), dr_bad, dr_fail
  common /dr_state/ dr_next, dr_extra, dr_calls, dr_items, dr_bad, dr_fail
  dr_calls(3) = dr_calls(3) + 1
  if (datatype /= MPI_INTEGER .or. (extra_state /= dr_extra .and. extra_state /= 0)) dr_bad = dr_bad + 1
  call MPI_TYPE_SIZE(datatype, sz, ierror)
  extent = sz
end subroutine dr_ext

! extra state > 0: that many times the size in memory; else MPI_ERR_OTHER
subroutine dr_ext2(datatype, extent, extra_state, ierror)
  use mpi
  implicit none
  integer :: datatype, ierror, sz
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  if (extra_state <= 0) then
    ierror = MPI_ERR_OTHER
    return
  end if
  call MPI_TYPE_SIZE(datatype, sz, ierror)
  extent = sz * extra_state
end subroutine dr_ext2
