! io_datarep08.f90 - mpi_f08, 2 ranks: MPI_Register_datarep with
! conversion and extent functions of mpi_f08's abstract interfaces
! MPI_Datarep_conversion_function (userbuf and filebuf TYPE(C_PTR) by
! value, TYPE(MPI_Datatype), position INTEGER(KIND=MPI_OFFSET_KIND)) and
! MPI_Datarep_extent_function (MPI-3.1 13.5.3). "rd8_add" adds its extra
! state (500) to each INTEGER on the way to the file; written through an
! interleaving view, read back through it (MPI_File_read_at and
! MPI_File_read_at_all) and through a "native" view,
! exact values; the callbacks get MPI_INTEGER, the extra state and
! positions in order; a conversion function's ierror fails the access
! with MPI_ERR_CONVERSION; MPI_File_get_type_extent from the extent
! function. MPI_CONVERSION_FN_NULL (a procedure) to read and to write,
! MPI_ERR_DUP_DATAREP for a name taken. ierror optional. The file is made
! in the current directory.
module io_datarep08_cb
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  ! what the callbacks saw: calls of read, write, extent; data items read,
  ! written; calls with a wrong datatype, extra state or position; fail:
  ! 1 makes the write function, 2 the read function return MPI_ERR_OTHER
  integer(kind=MPI_OFFSET_KIND) :: d8_next = 0
  integer(kind=MPI_ADDRESS_KIND) :: d8_extra = 500
  integer :: d8_calls(3) = 0, d8_items(2) = 0, d8_bad = 0, d8_fail = 0
contains
  ! an INTEGER's 4 bytes in the other order
  elemental integer function d8_bswap(x)
    integer, intent(in) :: x
    integer :: k
    d8_bswap = 0
    do k = 0, 3
      call mvbits(x, 8 * k, 8, d8_bswap, 8 * (3 - k))
    end do
  end function d8_bswap

  subroutine d8_check(datatype, count, position, extra_state)
    type(MPI_Datatype) :: datatype
    integer :: count
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    if (datatype /= MPI_INTEGER .or. extra_state /= d8_extra .or. position /= d8_next .or. count < 1) &
      d8_bad = d8_bad + 1
    d8_next = position + count
  end subroutine d8_check

  subroutine d8_add_w(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    d8_calls(2) = d8_calls(2) + 1
    call d8_check(datatype, count, position, extra_state)
    if (d8_fail == 1) then
      ierror = MPI_ERR_OTHER
      return
    end if
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    f = u(position + 1:) + int(extra_state)
    d8_items(2) = d8_items(2) + count
    ierror = MPI_SUCCESS
  end subroutine d8_add_w

  subroutine d8_add_r(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    d8_calls(1) = d8_calls(1) + 1
    call d8_check(datatype, count, position, extra_state)
    if (d8_fail == 2) then
      ierror = MPI_ERR_OTHER
      return
    end if
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    u(position + 1:) = f - int(extra_state)
    d8_items(1) = d8_items(1) + count
    ierror = MPI_SUCCESS
  end subroutine d8_add_r

  subroutine d8_swap_w(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    d8_calls(2) = d8_calls(2) + 1
    if (datatype /= MPI_INTEGER .or. extra_state /= 0) d8_bad = d8_bad + 1
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    f = d8_bswap(u(position + 1:))
    ierror = MPI_SUCCESS
  end subroutine d8_swap_w

  subroutine d8_swap_r(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    type(c_ptr), value :: userbuf, filebuf
    type(MPI_Datatype) :: datatype
    integer :: count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer, pointer :: u(:), f(:)
    d8_calls(1) = d8_calls(1) + 1
    if (datatype /= MPI_INTEGER .or. extra_state /= 0) d8_bad = d8_bad + 1
    call c_f_pointer(userbuf, u, [position + count])
    call c_f_pointer(filebuf, f, [count])
    u(position + 1:) = d8_bswap(f)
    ierror = MPI_SUCCESS
  end subroutine d8_swap_r

  ! the file extent of a basic type: its size in memory
  subroutine d8_ext(datatype, extent, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
    integer :: ierror, sz
    d8_calls(3) = d8_calls(3) + 1
    if (datatype /= MPI_INTEGER .or. (extra_state /= d8_extra .and. extra_state /= 0)) d8_bad = d8_bad + 1
    call MPI_Type_size(datatype, sz, ierror)
    extent = sz
  end subroutine d8_ext
end module io_datarep08_cb

program io_datarep08
  use mpi_f08
  use io_datarep08_cb
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, np, i, r, cnt, c0
  integer :: buf(n), got(n), whole(4 * n)
  type(MPI_File) :: fh
  type(MPI_Datatype) :: ftype, etype2, ftype2
  type(MPI_Status) :: st
  integer(kind=MPI_ADDRESS_KIND) :: ext
  integer(kind=MPI_OFFSET_KIND) :: disp
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  logical :: okay

  call mt_start(rank, np)

  call MPI_Register_datarep('rd8_add', d8_add_r, d8_add_w, d8_ext, d8_extra, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Register_datarep "rd8_add" of mpi_f08 procedures')
  call MPI_Register_datarep('rd8_add', d8_add_r, d8_add_w, d8_ext, d8_extra, ierr)
  call mt_is_int(ierr, MPI_ERR_DUP_DATAREP, 'MPI_Register_datarep "rd8_add" again: MPI_ERR_DUP_DATAREP')
  call MPI_Register_datarep('external32', d8_add_r, d8_add_w, d8_ext, d8_extra, ierr)
  call mt_is_int(ierr, MPI_ERR_DUP_DATAREP, 'MPI_Register_datarep "external32": MPI_ERR_DUP_DATAREP')

  call MPI_File_open(MPI_COMM_WORLD, 'io_fdrep08.dat', ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh)
  call MPI_Type_create_resized(MPI_INTEGER, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND * np, ftype)
  call MPI_Type_commit(ftype)
  call MPI_File_set_view(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd8_add', MPI_INFO_NULL, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. d8_bad == 0, 'MPI_File_set_view "rd8_add", an interleaving filetype')
  call MPI_File_get_view(fh, disp, etype2, ftype2, rep)
  call mt_ok(rep == 'rd8_add' .and. etype2 == MPI_INTEGER, 'MPI_File_get_view: "rd8_add"')
  call MPI_Type_free(ftype2)
  c0 = d8_calls(3)
  call MPI_File_get_type_extent(fh, MPI_INTEGER, ext, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. ext == 4 .and. d8_calls(3) == c0 + 1, &
             'MPI_File_get_type_extent of MPI_INTEGER: 4, from one call of the extent function')

  buf = [(rank * 100 + i, i = 1, n)]
  d8_next = 0
  call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call mt_ok(cnt == n .and. d8_items(2) == n .and. d8_bad == 0, &
             'MPI_File_write_at through "rd8_add": the write function converted the 8 INTEGERs in order')
  call MPI_Barrier(MPI_COMM_WORLD)
  got = -1
  d8_next = 0
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == buf) .and. d8_items(1) == n .and. d8_bad == 0, &
             'MPI_File_read_at through "rd8_add": the values written')
  got = -1
  d8_next = 0
  c0 = d8_items(1)
  call MPI_File_read_at_all(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == buf) .and. d8_items(1) == c0 + n .and. d8_bad == 0, &
             'MPI_File_read_at_all through "rd8_add": the same, converted in the call')
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
  whole = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, whole, n * np, MPI_INTEGER, st, ierr)
  okay = ierr == MPI_SUCCESS
  do r = 0, np - 1
    do i = 1, n
      okay = okay .and. whole((i - 1) * np + r + 1) == r * 100 + i + 500
    end do
  end do
  call mt_ok(okay, 'the file through a "native" view: every rank''s values + 500, interleaved')
  call MPI_Barrier(MPI_COMM_WORLD)

  call MPI_File_set_view(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd8_add', MPI_INFO_NULL)
  d8_fail = 1
  d8_next = 0
  call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call mt_is_int(ierr, MPI_ERR_CONVERSION, 'the write function''s ierror MPI_ERR_OTHER: MPI_ERR_CONVERSION')
  d8_fail = 2
  d8_next = 0
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_is_int(ierr, MPI_ERR_CONVERSION, 'the read function''s ierror MPI_ERR_OTHER: MPI_ERR_CONVERSION')
  d8_fail = 0

  ! MPI_CONVERSION_FN_NULL both ways round
  call MPI_Register_datarep('rd8_swapw', MPI_CONVERSION_FN_NULL, d8_swap_w, d8_ext, 0_MPI_ADDRESS_KIND, ierr)
  call mt_is_int(ierr, MPI_SUCCESS, 'MPI_Register_datarep "rd8_swapw", MPI_CONVERSION_FN_NULL to read')
  call MPI_Register_datarep('rd8_swapr', d8_swap_r, MPI_CONVERSION_FN_NULL, d8_ext, 0_MPI_ADDRESS_KIND)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_set_view(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd8_swapw', MPI_INFO_NULL)
  c0 = d8_calls(1)
  call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st)
  got = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == d8_bswap(buf)) .and. d8_calls(1) == c0, &
             'through "rd8_swapw": written with the bytes reversed, read as they are')
  call MPI_File_set_view(fh, 4_MPI_OFFSET_KIND * rank, MPI_INTEGER, ftype, 'rd8_swapr', MPI_INFO_NULL)
  c0 = d8_calls(2)
  got = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, got, n, MPI_INTEGER, st, ierr)
  call mt_ok(ierr == MPI_SUCCESS .and. all(got == buf), &
             'the same through "rd8_swapr": its read function reverses them back')
  call MPI_File_write_at(fh, 0_MPI_OFFSET_KIND, buf, n, MPI_INTEGER, st, ierr)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
  whole = -1
  call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, whole, n * np, MPI_INTEGER, st)
  okay = d8_calls(2) == c0
  do r = 0, np - 1
    do i = 1, n
      okay = okay .and. whole((i - 1) * np + r + 1) == r * 100 + i
    end do
  end do
  call mt_ok(okay, 'written through "rd8_swapr" (no write function called): native values in the file')
  call mt_ok(d8_bad == 0, 'every callback got MPI_INTEGER, its extra state and positions in order')

  call MPI_File_close(fh)
  call MPI_Type_free(ftype)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) call MPI_File_delete('io_fdrep08.dat', MPI_INFO_NULL)
  call mt_done()
  call MPI_Finalize()
end program io_datarep08
