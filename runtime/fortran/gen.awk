# gen.awk - rdmpi's Fortran bindings from one description.
#
#   awk -v outdir=DIR -f gen.awk runtime/api/mpi.api include/mpi.h
#
# Reads the API description (runtime/api/mpi.api: its header says the
# format) and mpi.h (integer constants, the predefined datatype and
# operation lists, the prototypes), and writes into DIR:
#   mpif.h      the Fortran header: INTEGER constants, handles, special
#               objects (common blocks), the functions that are not
#               subroutines; valid in fixed and free source form
#   fglue.c     the C glue of librdmpifort: per function MPI_X, a strong
#               pmpi_x_ and a weak mpi_x_ (gfortran's names) that convert
#               the Fortran arguments and call the C MPI_X; one compile-time
#               check per function that the C signature derived from
#               mpi.api is mpi.h's
#   mpi.f90     the mpi module: mpif.h's constants and special objects,
#               interfaces over the glue for MPI_X and PMPI_X, MPI_SIZEOF;
#               TYPE(MPI_Status) of mpi_f08_types (MPI_STATUS_F2F08's)
#   fglue.c also holds mpi_f08's C: per function an alias pmpi_x_f08_ /
#               mpi_x_f08_ of pmpi_x_, or (choice buffers) pmpi_x_f08ts_ /
#               mpi_x_f08ts_ taking descriptors (fsection.c); == and /=
#   mpi_f08_types.f90  mpi_f08's types (TYPE(MPI_Comm) ..., MPI_Status),
#               constants, special objects (BIND(C)), operators, callback
#               interfaces
#   mpi_f08.f90, pmpi_f08.f90  the generics MPI_X / PMPI_X over those
#   fhandles.c  a C program that checks each handle PARAMETER of mpif.h
#               against MPI_*_c2f of the C handle
# each written as FILE.tmp (the make rule moves them). Any error (an entry
# without a prototype in mpi.h, a kind not handled, a line too long for
# fixed form, a function of mpi.h that mpi.api does not account for) is
# printed on stderr and the exit status is 1.
#
# POSIX awk only (mawk runs it): no gensub, asort, length(array), arrays
# of arrays.

function err(msg) {
    print "gen.awk: " msg | "cat 1>&2"
    nerr++
}
function trim(s) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    return s
}

# ---------------------------------------------------------------- reading mpi.api
function api_record(rec, indented,   f, n, i, t) {
    rec = trim(rec)
    if (rec == "")
        return
    n = split(rec, f, /[ \t]+/)
    if (indented) {
        if (nfn == 0) {
            err(FILENAME ":" FNR ": an argument outside a function")
            return
        }
        if (n < 3) {
            err(FILENAME ":" FNR ": an argument needs NAME KIND INTENT: " rec)
            return
        }
        i = ++fnargs[nfn]
        aname[nfn, i] = f[1]
        t = f[2]
        alen[nfn, i] = ""
        if (t ~ /\[/) {
            alen[nfn, i] = t
            sub(/^[^[]*\[/, "", alen[nfn, i])
            sub(/\]$/, "", alen[nfn, i])
            sub(/\[.*/, "", t)
        }
        akind[nfn, i] = t
        aintent[nfn, i] = f[3]
        if (f[3] != "in" && f[3] != "out" && f[3] != "inout")
            err(FILENAME ":" FNR ": intent must be in, out or inout: " rec)
        aflags[nfn, i] = " "
        for (t = 4; t <= n; t++)
            aflags[nfn, i] = aflags[nfn, i] f[t] " "
        return
    }
    if (f[1] == "fn") {
        nfn++
        fname[nfn] = f[2]
        fret[nfn] = "int"
        fnargs[nfn] = 0
        if (n >= 4 && f[3] == "->")
            fret[nfn] = f[4]
        if (f[2] in fnum)
            err(FILENAME ":" FNR ": MPI_" f[2] " is described twice")
        fnum[f[2]] = nfn
    } else if (f[1] == "handle") {
        nhk++
        hkname[nhk] = f[2]
        hkcode[nhk] = f[3] + 0
        hkitems[nhk] = ""
        for (i = 4; i <= n; i++)
            hkitems[nhk] = hkitems[nhk] " " f[i]
    } else if (f[1] == "const") {
        if (f[3] != "=") {
            err(FILENAME ":" FNR ": const NAME = VALUE: " rec)
            return
        }
        ncst++
        cstname[ncst] = f[2]
        cstexpr[ncst] = ""
        for (i = 4; i <= n; i++)
            cstexpr[ncst] = cstexpr[ncst] (i > 4 ? " " : "") f[i]
    } else if (f[1] == "const08") {
        if (f[3] != "=" || n != 4) {
            err(FILENAME ":" FNR ": const08 NAME = VALUE: " rec)
            return
        }
        cst08[f[2]] = f[4]
    } else if (f[1] == "c_only" || f[1] == "todo") {
        # functions of mpi.h without a Fortran binding: by the standard
        # (c_only), or not yet (todo)
        for (i = 2; i <= n; i++) {
            if (f[i] in fnum || f[i] in unbound)
                err(FILENAME ":" FNR ": MPI_" f[i] " is described twice")
            unbound[f[i]] = f[1]
        }
    } else if (f[1] == "mpi1") {
        # removed in MPI-3.0: mpif.h and the mpi module only
        for (i = 2; i <= n; i++)
            mpi1[f[i]] = FILENAME ":" FNR
    } else if (f[1] == "callback") {
        # (iface=I: mpi_f08's abstract interface of the record's callbacks)
        t = ""
        for (i = 2; i <= n; i++)
            if (f[i] ~ /^iface=/)
                t = substr(f[i], 7)
        for (i = 2; i <= n; i++)
            if (f[i] !~ /^iface=/) {
                cbnames = cbnames " " f[i]
                if (t != "")
                    cbiface[f[i]] = t
            }
    } else if (f[1] == "sizeof") {
        if (n != 4 || f[4] !~ /^([0-9]+|len)$/) {
            err(FILENAME ":" FNR ": sizeof NAME TYPE BYTES: " rec)
            return
        }
        nsz++
        szname[nsz] = f[2]
        sztype[nsz] = f[3]
        szbytes[nsz] = f[4]
    } else if (f[1] == "special") {
        nsp++
        spname[nsp] = f[2]
        spsym[nsp] = f[3]
        spdims[nsp] = f[4]
        sptype[nsp] = n >= 5 ? f[5] : "INTEGER"
    } else
        err(FILENAME ":" FNR ": unknown record " f[1])
}

# ---------------------------------------------------------------- reading mpi.h
function h_xmacro_line(line,   item) {
    while (match(line, /X\([A-Za-z0-9_]+/)) {
        item = substr(line, RSTART + 2, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        if (xcur == "RD_MPI_PREDEFINED_OPS")
            item = toupper(item)
        xmacro[xcur] = xmacro[xcur] " MPI_" item
    }
}
function h_proto(text,   ret, name, args, n, p, i) {
    sub(/^RD_MPI_PROTO\(/, "", text)
    ret = trim(substr(text, 1, index(text, ",") - 1))
    text = substr(text, index(text, ",") + 1)
    name = trim(substr(text, 1, index(text, ",") - 1))
    args = trim(substr(text, index(text, ",") + 1))
    sub(/\)$/, "", args)
    sub(/^\(/, "", args)
    sub(/\)$/, "", args)
    gsub(/[ \t]+/, " ", args)
    pret[name] = ret
    pnargs[name] = 0
    if (trim(args) == "void")
        return
    n = split(args, p, ",")
    pvariadic[name] = trim(p[n]) == "..."
    if (pvariadic[name])
        n-- # variadic (MPI_Pcontrol): Fortran passes the named arguments only
    for (i = 1; i <= n; i++) {
        p[i] = trim(p[i])
        parg[name, i] = p[i]
    }
    pnargs[name] = n
}

FNR == 1 { fileno++ }

fileno == 1 {
    line = $0
    sub(/#.*/, "", line)
    indented = (line ~ /^[ \t]/)
    n = split(line, recs, ";")
    for (r = 1; r <= n; r++)
        api_record(recs[r], indented)
    next
}

fileno == 2 && xcur != "" {
    h_xmacro_line($0)
    if ($0 !~ /\\$/)
        xcur = ""
    next
}
fileno == 2 && /^#define RD_MPI_PREDEFINED_[A-Z]+\(X\)/ {
    xcur = $2
    sub(/\(X\)$/, "", xcur)
    xmacro[xcur] = ""
    h_xmacro_line(substr($0, index($0, "(X)") + 3))
    if ($0 !~ /\\$/)
        xcur = ""
    next
}
fileno == 2 && /^#define[ \t]+MPI_[A-Za-z0-9_]+[ \t]+\(?-?[0-9]+\)?[ \t]*(\/\*.*)?$/ {
    v = $3
    gsub(/[()]/, "", v)
    if (!($2 in hdef))
        hdorder[++nhd] = $2
    hdef[$2] = v + 0
    next
}
fileno == 2 && ptext != "" {
    ptext = ptext " " trim($0)
    pdepth += gsub(/\(/, "(", $0) - gsub(/\)/, ")", $0)
    if (pdepth == 0) {
        h_proto(ptext)
        ptext = ""
    }
    next
}
fileno == 2 && /^RD_MPI_PROTO\(/ {
    ptext = trim($0)
    pdepth = gsub(/\(/, "(", $0) - gsub(/\)/, ")", $0)
    if (pdepth == 0) {
        h_proto(ptext)
        ptext = ""
    }
    next
}

# ---------------------------------------------------------------- mpif.h
# one statement, in columns 7-72
function fst(s) {
    s = "      " s
    if (length(s) > 72)
        err("mpif.h: a statement longer than 72 columns: " s)
    print s > fout
}
function fcom(s) {
    print "!" (s == "" ? "" : " " s) > fout
}
function fparam(name, value, type) {
    if (length(name) > 31)
        err("mpif.h: " name " is longer than 31 characters")
    if (name in fdone)
        err("mpif.h: " name " is defined twice")
    fdone[name] = 1
    fst((type == "" ? "INTEGER" : type) " " name)
    fst("PARAMETER (" name "=" value ")")
}
# a list of names after a type word, as many statements as fit
function fdecl(word, names,   n, w, i, s) {
    n = split(names, w, " ")
    s = ""
    for (i = 1; i <= n; i++) {
        if (s != "" && length("      " word " " s ", " w[i]) > 72) {
            fst(word " " s)
            s = ""
        }
        s = s (s == "" ? "" : ", ") w[i]
    }
    if (s != "")
        fst(word " " s)
}
# the value of a const record's expression: a number, a LOGICAL, or an
# integer constant of mpi.h with an optional "+ N" / "- N"
function cst_value(e,   w, n, v) {
    if (e ~ /^-?[0-9]+$/)
        return e + 0
    if (e == ".TRUE." || e == ".FALSE.")
        return e
    n = split(e, w, " ")
    if (!(w[1] in hdef)) {
        err("mpi.api: const refers to " w[1] ", not an integer constant of mpi.h")
        return 0
    }
    v = hdef[w[1]]
    if (n == 3 && w[2] == "+")
        v += w[3]
    else if (n == 3 && w[2] == "-")
        v -= w[3]
    else if (n != 1)
        err("mpi.api: const expression not understood: " e)
    return v
}
# the handle items of kind k, X-macros expanded, into hitem[k, 0..]
function handle_items(k,   n, w, i, m, x, j, cnt) {
    n = split(hkitems[k], w, " ")
    cnt = 0
    for (i = 1; i <= n; i++) {
        if (w[i] ~ /^@/) {
            x = substr(w[i], 2)
            if (!(x in xmacro)) {
                err("mpi.api: handle " hkname[k] ": no X-macro " x " in mpi.h")
                continue
            }
            m = split(xmacro[x], xw, " ")
            for (j = 1; j <= m; j++)
                hitem[k, cnt++] = xw[j]
        } else
            hitem[k, cnt++] = w[i]
    }
    hcount[k] = cnt
}
# the constants, handles and special objects, into fout: mpif.h and the
# mpi module have the same, from this one function
function write_consts(   i, k, j, v, dims) {
    split("", fdone)
    fcom("Integer constants of mpi.h (string maxima one less than C's)")
    for (i = 1; i <= nhd; i++) {
        if (hdorder[i] ~ /^MPI_F_/)
            continue # C's view of the Fortran status
        v = hdef[hdorder[i]]
        if (hdorder[i] ~ /^MPI_MAX_/)
            v--
        fparam(hdorder[i], v)
    }
    fcom("")
    fcom("Fortran-only constants")
    for (i = 1; i <= ncst; i++) {
        v = cst_value(cstexpr[i])
        fparam(cstname[i], v, v ~ /^\./ ? "LOGICAL" : "INTEGER")
    }
    fcom("")
    fcom("Handles: kind * 2**24 + index, index 0 the kind's _NULL")
    for (k = 1; k <= nhk; k++) {
        handle_items(k)
        for (j = 0; j < hcount[k]; j++)
            fparam(hitem[k, j], hkcode[k] * 16777216 + j)
    }
    fcom("")
    fcom("Special objects: the library knows them by their addresses")
    for (i = 1; i <= nsp; i++) {
        dims = spdims[i] == "1" ? "" : "(" spdims[i] ")"
        fst(sptype[i] " " spname[i] dims)
        fst("COMMON /" toupper(spsym[i]) "/ " spname[i])
    }
    fcom("")
    fcom("Predefined callbacks (C functions of librdmpifort)")
    fdecl("EXTERNAL", cbnames)
}
function write_mpifh(   i, v, names, dnames, anames) {
    fout = outdir "/mpif.h.tmp"
    fcom("mpif.h - rdmpi's Fortran header. Generated by runtime/fortran/gen.awk")
    fcom("from runtime/api/mpi.api and include/mpi.h: do not edit.")
    fcom("Fixed and free source form alike: statements in columns 7-72.")
    fcom("Default INTEGER and LOGICAL of 4 bytes (no -fdefault-integer-8).")
    fcom("")
    write_consts()
    fcom("")
    fcom("Functions")
    names = ""
    dnames = ""
    anames = ""
    for (i = 1; i <= nfn; i++)
        if (fret[i] != "int" && fret[i] != "none") {
            v = toupper("MPI_" fname[i]) " " toupper("PMPI_" fname[i])
            if (fret[i] == "double")
                dnames = dnames " " v
            else if (fret[i] == "MPI_Aint")
                anames = anames " " v
            else
                err("mpi.api: MPI_" fname[i] " returns " fret[i] ": mpif.h knows double and MPI_Aint")
            names = names " " v
        }
    fdecl("DOUBLE PRECISION", dnames)
    fdecl("INTEGER(KIND=MPI_ADDRESS_KIND)", anames)
    fdecl("EXTERNAL", names)
    close(fout)
}

# ---------------------------------------------------------------- the mpi module
function mline(s) {
    print s > fout
}
# a statement of the module, continued with & past 100 columns
function mstmt(ind, s,   p) {
    while (length(ind s) > 100) {
        p = 100 - length(ind)
        while (p > 1 && substr(s, p, 1) != ",")
            p--
        if (p <= 1)
            break
        mline(ind substr(s, 1, p) " &")
        s = substr(s, p + 1)
        sub(/^ +/, "", s)
        ind = ind "    "
    }
    mline(ind s)
}
# the Fortran declaration of argument j of function i in an interface
# ("" when Fortran has none); NO_ARG_CHECK arguments add their directive
function mdecl(i, j,   k, a, t, dim, it, noarg) {
    k = akind[i, j]
    a = aname[i, j]
    dim = alen[i, j] == "" ? "" : "(*)"
    it = aintent[i, j] == "in" ? ", INTENT(IN)" : aintent[i, j] == "out" ? ", INTENT(OUT)" : ", INTENT(INOUT)"
    noarg = 0
    if (cabsent(k))
        return ""
    if (k == "proc")
        return "EXTERNAL :: " a
    if (k == "choice" || k == "discard") {
        # any type, kind and rank: the address is passed, as with mpif.h
        noarg = 1
        t = "TYPE(*), DIMENSION(*)"
        it = ""
        dim = ""
    } else if (k == "string") {
        t = "CHARACTER(LEN=*)"
        dim = ""
    } else if (k == "Status" || k == "fstatus") {
        t = "INTEGER"
        dim = dim == "" ? "(MPI_STATUS_SIZE)" : "(MPI_STATUS_SIZE, *)"
    } else if (k == "f08status")
        t = "TYPE(MPI_Status)"
    else if (k == "ranges") {
        t = "INTEGER"
        dim = "(3, *)"
    } else if (k == "int" || is_handle(k))
        t = "INTEGER"
    else if (k == "logical")
        t = "LOGICAL"
    else if (k == "aint" || k == "baseptr" || k == "aintval" || k == "attr")
        t = "INTEGER(KIND=MPI_ADDRESS_KIND)"
    else if (k == "intval" || k == "intattr" || k == "intaint")
        t = "INTEGER" # MPI-1's default INTEGER values and addresses
    else if (k == "offset")
        t = "INTEGER(KIND=MPI_OFFSET_KIND)"
    else if (k == "count")
        t = "INTEGER(KIND=MPI_COUNT_KIND)"
    else if (k == "double")
        t = "DOUBLE PRECISION"
    else {
        err("mpi.api: MPI_" fname[i] ": argument " a " has a kind the mpi module does not know: " k)
        return ""
    }
    # (weights: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are INTEGER scalars)
    # (NO_ARG_CHECK excludes INTENT(OUT))
    if (has(i, j, "weights")) {
        noarg = 1
        it = ""
    }
    return (noarg ? "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " a "\n" : "") t it " :: " a dim
}
# the interface body of function i under the name PREFIX_X
function minterface(i, prefix,   j, n, args, d, nm, w, m, kw, imp) {
    nm = toupper(prefix "_" fname[i])
    args = ""
    imp = ""
    for (j = 1; j <= fnargs[i]; j++) {
        if (!cabsent(akind[i, j]))
            args = args (args == "" ? "" : ", ") aname[i, j]
        if (akind[i, j] == "f08status")
            imp = ", MPI_Status"
    }
    if (fret[i] == "int" || fret[i] == "none") {
        # (none: a Fortran-only routine, no ierror)
        if (fret[i] == "int")
            args = args (args == "" ? "" : ", ") "ierror"
        kw = "SUBROUTINE"
        mstmt("    ", "SUBROUTINE " nm "(" args ")")
    } else {
        kw = "FUNCTION"
        mstmt("    ", "FUNCTION " nm "(" args ") RESULT(rd_result)")
    }
    mline("      IMPORT :: MPI_STATUS_SIZE, MPI_ADDRESS_KIND, MPI_OFFSET_KIND, MPI_COUNT_KIND" imp)
    mline("      IMPLICIT NONE")
    for (j = 1; j <= fnargs[i]; j++) {
        d = mdecl(i, j)
        if (d == "")
            continue
        n = split(d, w, "\\n")
        for (m = 1; m <= n; m++)
            mstmt("      ", w[m])
    }
    if (fret[i] == "int")
        mline("      INTEGER, INTENT(OUT) :: ierror")
    else if (fret[i] == "none")
        ;
    else if (fret[i] == "double")
        mline("      DOUBLE PRECISION :: rd_result")
    else if (fret[i] == "MPI_Aint")
        mline("      INTEGER(KIND=MPI_ADDRESS_KIND) :: rd_result")
    else
        err("mpi.api: MPI_" fname[i] " returns " fret[i] ": the mpi module knows double and MPI_Aint")
    mline("    END " kw " " nm)
}
function write_module(   i, s) {
    fout = outdir "/mpi.f90.tmp"
    fcom("mpi.f90 - rdmpi's mpi module (use mpi). Generated by runtime/fortran/gen.awk")
    fcom("from runtime/api/mpi.api and include/mpi.h: do not edit. The constants")
    fcom("and special objects are mpif.h's; the interfaces are over librdmpifort's")
    fcom("glue (mpi_x_, pmpi_x_): choice buffers take any type and rank")
    fcom("(NO_ARG_CHECK: the address is passed), every other argument is checked.")
    mline("MODULE mpi")
    # (MPI_STATUS_F2F08 and MPI_STATUS_F082F take mpi_f08's status type)
    mline("      USE mpi_f08_types, ONLY : MPI_Status")
    mline("      IMPLICIT NONE")
    write_consts()
    fcom("")
    fcom("MPI_SIZEOF: the size of a variable of each intrinsic type, any rank")
    mline("      INTERFACE")
    for (i = 1; i <= nsz; i++) {
        mline("    SUBROUTINE mpi_sizeof_" szname[i] "(x, size, ierror)")
        mline("      " sztype[i] ", DIMENSION(..) :: x")
        mline("      INTEGER, INTENT(OUT) :: size, ierror")
        mline("    END SUBROUTINE mpi_sizeof_" szname[i])
    }
    mline("      END INTERFACE")
    s = ""
    for (i = 1; i <= nsz; i++)
        s = s (i > 1 ? ", " : "") "mpi_sizeof_" szname[i]
    mline("      INTERFACE MPI_SIZEOF")
    mstmt("        ", "PROCEDURE :: " s)
    mline("      END INTERFACE MPI_SIZEOF")
    mline("      INTERFACE PMPI_SIZEOF")
    mstmt("        ", "PROCEDURE :: " s)
    mline("      END INTERFACE PMPI_SIZEOF")
    mstmt("      ", "PRIVATE :: " s)
    fcom("")
    fcom("The functions, MPI_ and PMPI_")
    mline("      INTERFACE")
    for (i = 1; i <= nfn; i++) {
        minterface(i, "MPI")
        minterface(i, "PMPI")
    }
    mline("      END INTERFACE")
    mline("END MODULE mpi")
    close(fout)
}
# the C side of MPI_SIZEOF's specifics: the size is the function's
function write_sizeof(   i) {
    gline("")
    gline("/* MPI_SIZEOF (the mpi module's generic): one function per specific; the")
    gline(" * variable (a descriptor) is not looked at. A CHARACTER's length comes")
    gline(" * after the arguments, as for every CHARACTER(LEN=*). */")
    for (i = 1; i <= nsz; i++) {
        if (szbytes[i] == "len") {
            gline("void mpi_sizeof_" szname[i] "_(const void *x, MPI_Fint *size, MPI_Fint *ierr, size_t x_len);")
            gline("void mpi_sizeof_" szname[i] "_(const void *x, MPI_Fint *size, MPI_Fint *ierr, size_t x_len)")
        } else {
            gline("void mpi_sizeof_" szname[i] "_(const void *x, MPI_Fint *size, MPI_Fint *ierr);")
            gline("void mpi_sizeof_" szname[i] "_(const void *x, MPI_Fint *size, MPI_Fint *ierr)")
        }
        gline("{")
        gline("    (void)x;")
        gline("    *size = " (szbytes[i] == "len" ? "(MPI_Fint)x_len" : szbytes[i]) ";")
        gline("    if (ierr)")
        gline("        *ierr = MPI_SUCCESS;")
        gline("}")
    }
}

# ---------------------------------------------------------------- the C glue
function is_handle(kind) {
    return kind in hkind_code
}
# the suffix of MPI_X_c2f / _f2c for a handle kind
function conv(kind) {
    return kind == "Datatype" ? "Type" : kind
}
# a C argument Fortran does not have (passed as NULL, czero's as 0)
function cabsent(kind) {
    return kind == "cnull" || kind == "czero"
}
function has(i, j, flag) {
    return index(aflags[i, j], " " flag " ") > 0
}
# the value of flag NAME=VALUE of an argument ("" without it)
function flagval(i, j, name,   f, p) {
    f = aflags[i, j]
    p = index(f, " " name "=")
    if (p == 0)
        return ""
    f = substr(f, p + length(name) + 2)
    return substr(f, 1, index(f, " ") - 1)
}
# an argument's name as a C expression of its value (*NAME), checked
function argval(i, j, name,   m) {
    for (m = 1; m <= fnargs[i]; m++)
        if (aname[i, m] == name)
            return "*" name
    err("mpi.api: MPI_" fname[i] ": " aname[i, j] " refers to " name ", not an argument")
    return "0"
}
# the C type of argument j of function i, as mpi.api says it
function ctype(i, j,   k, isin, arr, t, stars) {
    k = akind[i, j]
    isin = aintent[i, j] == "in"
    arr = alen[i, j] != ""
    if (cabsent(k) || k == "proc") {
        t = parg[fname[i], j]
        # an array parameter (char *argv[]) is a pointer: one * per []
        while (match(t, /\[[^]]*\]$/)) {
            t = substr(t, 1, RSTART - 1)
            stars = stars "*"
        }
        sub(/[A-Za-z_][A-Za-z0-9_]*$/, "", t)
        return trim(t) stars
    }
    if (k == "choice")
        return isin ? "const void *" : "void *"
    if (k == "baseptr" || k == "discard" || k == "aintval" || k == "attr" || k == "intval" || k == "intattr")
        return "void *"
    if (k == "ranges")
        return "int (*)[3]"
    if (k == "string")
        return isin ? "const char *" : "char *"
    if (k == "Status") # (cmutable: the standard's C binding has no const, MPI 4.1's getters)
        return isin && !has(i, j, "cmutable") ? "const MPI_Status *" : "MPI_Status *"
    if (k == "fstatus")
        return isin ? "const MPI_Fint *" : "MPI_Fint *"
    if (k == "f08status")
        return isin ? "const MPI_F08_status *" : "MPI_F08_status *"
    if (k == "int" || k == "logical")
        t = "int"
    else if (k == "aint" || k == "intaint")
        t = "MPI_Aint"
    else if (k == "count")
        t = "MPI_Count"
    else if (k == "offset")
        t = "MPI_Offset"
    else if (k == "double")
        t = "double"
    else if (is_handle(k))
        t = "MPI_" k
    else {
        err("mpi.api: MPI_" fname[i] ": argument " aname[i, j] " has an unknown kind " k)
        return "int"
    }
    if (isin && !arr)
        return t
    return (isin ? "const " : "") t " *"
}
# the glue's parameter for argument j (empty: Fortran has none)
function fctype(i, j,   k) {
    k = akind[i, j]
    if (cabsent(k))
        return ""
    if (k == "proc")
        return "void (*)(void)"
    if (k == "choice" || k == "discard")
        return "void *"
    if (k == "string")
        return "char *"
    if (k == "aint" || k == "baseptr" || k == "aintval" || k == "attr")
        return "MPI_Aint *"
    if (k == "count")
        return "MPI_Count *"
    if (k == "offset")
        return "MPI_Offset *"
    if (k == "double")
        return "double *"
    if (k == "f08status")
        return "MPI_F08_status *"
    return "MPI_Fint *"
}
# an array length as a C expression
function lenexpr(i, j,   l, m, k) {
    l = alen[i, j]
    for (m = 1; m <= fnargs[i]; m++)
        if (aname[i, m] == l)
            return "*" l
    if (l ~ /^[0-9]+$/ || l in hdef)
        return l
    # helpers of a communicator argument: the dimensions of a Cartesian one,
    # its (remote) size, its in- and out-degree (fglue.h)
    if (l ~ /^@(ndims|size|indegree|outdegree)\([a-z_]+\)$/) {
        m = l
        sub(/^@[a-z]+\(/, "", m)
        sub(/\)$/, "", m)
        k = l
        sub(/^@/, "", k)
        sub(/\(.*/, "", k)
        return "rd_fg_" (k == "ndims" ? "cartdim" : k) "(PMPI_Comm_f2c(" argval(i, j, m) "))"
    }
    err("mpi.api: MPI_" fname[i] ": length " l " of " aname[i, j] " is neither an argument nor a constant of mpi.h")
    return "0"
}
function gline(s) {
    print s > gout
}
# the parameter list of pmpi_x_ for function i
function glue_params(i,   j, s, hid) {
    s = ""
    hid = ""
    for (j = 1; j <= fnargs[i]; j++) {
        if (fctype(i, j) == "")
            continue
        if (akind[i, j] == "proc")
            s = s (s == "" ? "" : ", ") "void (*" aname[i, j] ")(void)"
        else
            s = s (s == "" ? "" : ", ") fctype(i, j) aname[i, j]
        if (akind[i, j] == "string")
            hid = hid ", size_t " aname[i, j] "_len"
    }
    if (fret[i] == "int")
        s = s (s == "" ? "" : ", ") "MPI_Fint *ierr"
    s = s hid
    return s == "" ? "void" : s
}
# a Fortran-only routine (fn NAME -> none, MPI_F_SYNC_REG): pmpi_x_SFX_ and
# a weak mpi_x_SFX_ that do nothing; being external, unknown to the
# compiler, and given the arguments' addresses, they make it store what it
# holds of them in registers before the call and load them again after
function glue_none(i, sfx, params,   j, low) {
    low = tolower(fname[i]) sfx
    if (fname[i] in pret)
        err("mpi.api: MPI_" fname[i] " is Fortran-only (-> none) but mpi.h declares it")
    gline("")
    gline("/* MPI_" toupper(fname[i]) (sfx == "" ? "" : " (mpi_f08's " sfx ")") ": Fortran only, does nothing */")
    gline("void pmpi_" low "_(" params ");")
    gline("void mpi_" low "_(" params ");")
    gline("#pragma weak mpi_" low "_ = pmpi_" low "_")
    gline("void pmpi_" low "_(" params ")")
    gline("{")
    for (j = 1; j <= fnargs[i]; j++)
        gline("    (void)" aname[i, j] ";")
    gline("}")
}
# the index of function i's argument NAME (0: none)
function argn(i, name,   m) {
    for (m = 1; m <= fnargs[i]; m++)
        if (aname[i, m] == name)
            return m
    return 0
}
function glue_fn(i,   j, k, a, c, t, m, low, params, decl, pre, call, post, always, frees, ctypes, tmp, n, inl, rt) {
    low = tolower(fname[i]) glue_sfx
    if (fret[i] == "none") {
        glue_none(i, "", glue_params(i))
        return
    }
    if (!(fname[i] in pret)) {
        err("mpi.api: MPI_" fname[i] " has no prototype in mpi.h")
        return
    }
    if (pnargs[fname[i]] != fnargs[i])
        err("mpi.api: MPI_" fname[i] " has " fnargs[i] " arguments, mpi.h " pnargs[fname[i]])
    ctypes = ""
    for (j = 1; j <= fnargs[i]; j++)
        ctypes = ctypes (j > 1 ? ", " : "") ctype(i, j)
    if (pvariadic[fname[i]])
        ctypes = ctypes ", ..."
    if (ctypes == "")
        ctypes = "void"
    gline("")
    gline("/* MPI_" toupper(fname[i]) " */")
    gline("_Static_assert(__builtin_types_compatible_p(__typeof__(&PMPI_" fname[i] "), " fret[i] " (*)(" ctypes ")),")
    gline("               \"mpi.api: the arguments of MPI_" fname[i] " are not mpi.h's\");")
    params = glue_params(i)
    rt = fret[i] == "int" ? "void" : fret[i]
    gline(rt " pmpi_" low "_(" params ");")
    gline(rt " mpi_" low "_(" params ");")
    gline("#pragma weak mpi_" low "_ = pmpi_" low "_")
    if (fret[i] != "int") {
        call = ""
        for (j = 1; j <= fnargs[i]; j++) {
            if (akind[i, j] != "int" && akind[i, j] != "double" && akind[i, j] != "aint" || aintent[i, j] != "in" || alen[i, j] != "")
                err("mpi.api: MPI_" fname[i] " returns " fret[i] ": only scalar in arguments are handled")
            call = call (j > 1 ? ", " : "") "*" aname[i, j]
        }
        gline(fret[i] " pmpi_" low "_(" params ")")
        gline("{")
        gline("    return MPI_" fname[i] "(" call ");")
        gline("}")
        return
    }
    decl = ""; pre = ""; call = ""; post = ""; always = ""; frees = ""; tmp = 0
    for (j = 1; j <= fnargs[i]; j++) {
        a = aname[i, j]
        k = akind[i, j]
        c = "c_" a
        inl = aintent[i, j] == "in"
        # (the length as C: only where the glue converts element by element;
        # integer arrays pass through, whatever their length, @size(comm)...)
        n = alen[i, j] == "" ? "" : k == "int" || k == "aint" || k == "count" || k == "offset" ? "n/a" : lenexpr(i, j)
        # (a length that calls a helper: computed once)
        if (n ~ /\(/) {
            decl = decl "    int n_" a " = " n ";\n"
            n = "n_" a
        }
        if (cabsent(k))
            t = k == "czero" ? "0" : "NULL"
        else if (k == "proc") {
            # a Fortran procedure: its address as C's function type; the
            # object made from it (mark=ARG, an out handle) is then marked
            # as Fortran's, to be called with Fortran's arguments
            # (rd_mpi_f_KIND of runtime/api/fspecial.h)
            t = "(" ctype(i, j) ")" a
            # (null=NAME: the predefined callback NAME, a C function of
            # librdmpifort known by its address, is C's NULL there:
            # MPI_CONVERSION_FN_NULL; its prototype is fglue.h's)
            m = flagval(i, j, "null")
            if (m != "") {
                if (index(" " cbnames " ", " " m " ") == 0)
                    err("mpi.api: MPI_" fname[i] ": null=" m " is not a callback record")
                t = a " == (void (*)(void))" tolower(m) "_ ? NULL : " t
            }
            if (flagval(i, j, "mark") != "") {
                m = argn(i, flagval(i, j, "mark"))
                if (m == 0)
                    err("mpi.api: MPI_" fname[i] ": mark=" flagval(i, j, "mark") " is not an argument")
                else if (is_handle(akind[i, m]))
                    post = post "        rd_mpi_f_" tolower(akind[i, m]) "(c_" aname[i, m] ");\n"
                else if (akind[i, m] == "string") {
                    # (a data representation, known by its name)
                    if (aname[i, m] != "datarep" || aintent[i, m] != "in")
                        err("mpi.api: MPI_" fname[i] ": mark= names a string: only a datarep in (rd_mpi_f_datarep)")
                    post = post "        rd_mpi_f_datarep(c_" aname[i, m] ");\n"
                } else
                    post = post "        rd_mpi_f_keyval(*" aname[i, m] ");\n"
            }
            # (markint=ARG: a keyval of callbacks with INTEGER values, MPI-1's)
            if (flagval(i, j, "markint") != "")
                post = post "        rd_mpi_f_keyval_int(" argval(i, j, flagval(i, j, "markint")) ");\n"
        } else if (k == "intval") {
            # MPI-1's INTEGER attribute value or extra state: sign-extended
            t = "(void *)(MPI_Aint)*" a
        } else if (k == "intaint" && n != "") {
            # MPI-1's INTEGER addresses in (an array): widened, in a temporary
            if (!inl)
                err("mpi.api: MPI_" fname[i] ": intaint arrays out are not handled")
            decl = decl "    MPI_Aint s_" a "[RD_FG_STACK], *" c " = NULL;\n"
            pre = pre "    if (!(" c " = rd_fg_tmp(s_" a ", sizeof *" c ", " n ")))\n        goto nomem_;\n"
            pre = pre "    for (int i_ = 0; i_ < " n "; i_++)\n        " c "[i_] = " a "[i_];\n"
            frees = frees "    rd_fg_free(" c ", s_" a ");\n"
            t = c
            tmp = 1
        } else if (k == "intaint") {
            # MPI-1's INTEGER address: in widened; out MPI_ERR_ARG if it
            # does not fit (rd_mpi_f_int_out), never cut
            if (inl)
                t = "(MPI_Aint)*" a
            else {
                decl = decl "    MPI_Aint " c " = 0;\n"
                t = "&" c
                post = post "        rc_ = rd_mpi_f_int_out(" c ", " a ", \"MPI_" toupper(fname[i]) "\", \"" a "\");\n"
            }
        } else if (k == "aintval") {
            # an INTEGER(KIND=MPI_ADDRESS_KIND) in that C takes as a void *
            # (an attribute's value, an extra state): the bits unchanged
            t = "(void *)*" a
        } else if (k == "attr" || k == "intattr") {
            # an attribute's value out (MPI_X_GET_ATTR, key=KEYVAL): the
            # bits of the C void *, but the value where C gives a pointer
            # to it (the predefined attributes): rd_mpi_f_attr_X; intattr,
            # MPI-1's INTEGER (MPI_ATTR_GET, a communicator's): the
            # low-order part of that (the standard's rule)
            if (flagval(i, j, "when") == "" || flagval(i, j, "key") == "")
                err("mpi.api: MPI_" fname[i] ": " k " " a " needs key=KEYVAL and when=FLAG")
            decl = decl "    void *" c " = NULL;\n"
            t = "&" c
            m = fname[i]
            sub(/_.*/, "", m)
            m = k == "intattr" ? "(MPI_Fint)rd_mpi_f_attr_comm" : "rd_mpi_f_attr_" tolower(m)
            post = post "        if (c_" flagval(i, j, "when") ")\n            *" a " = " m "(" argval(i, j, flagval(i, j, "key")) ", " c ");\n"
        } else if (k == "baseptr") {
            # an address out (MPI_ALLOC_MEM): INTEGER(KIND=MPI_ADDRESS_KIND)
            decl = decl "    void *" c " = NULL;\n"
            t = "&" c
            post = post "        *" a " = (MPI_Aint)" c ";\n"
        } else if (k == "discard") {
            # a C pointer out that Fortran has no use for (MPI_BUFFER_DETACH's)
            decl = decl "    void *" c " = NULL;\n"
            t = "&" c
            # (mpi_f08's glue_sfx _f08 copy: a TYPE(C_PTR) out, written)
            if (glue_sfx != "")
                post = post "        *(void **)" a " = " c ";\n"
        } else if (k == "ranges")
            t = "(int (*)[3])" a
        else if (k == "fstatus" || k == "f08status") {
            # a status as Fortran holds it (MPI_STATUS_F2F08's): passed as
            # it is, the C function checks and copies
            if (n != "")
                err("mpi.api: MPI_" fname[i] ": " k " arrays are not handled")
            t = a
        }
        else if (k == "choice") {
            decl = decl "    void *" c " = rd_fg_buf(" a ", " (has(i, j, "inplace") ? 1 : 0) ");\n"
            t = c
        } else if (k == "int" || k == "aint" || k == "count" || k == "offset" || k == "double") {
            t = inl && n == "" ? "*" a : a
            # (weights: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY by address)
            if (has(i, j, "weights"))
                t = "rd_fg_weights(" a ")"
            # indices out (MPI_WAITANY's index, MPI_WAITSOME's indices):
            # Fortran counts from 1; MPI_UNDEFINED (negative) stays
            if (has(i, j, "index") && k == "int" && n == "" && !inl)
                post = post "        if (*" a " >= 0)\n            (*" a ")++;\n"
            else if (flagval(i, j, "index") != "" && k == "int" && n != "" && !inl)
                post = post "        for (int i_ = 0; i_ < " argval(i, j, flagval(i, j, "index")) "; i_++)\n            " a "[i_]++;\n"
            else if (has(i, j, "index") || flagval(i, j, "index") != "")
                err("mpi.api: MPI_" fname[i] ": index on " a ": an int out, or an int array out with index=COUNT")
        } else if (k == "logical" && n != "") {
            # LOGICAL arrays through a temporary array of C ints
            decl = decl "    int s_" a "[RD_FG_STACK], *" c " = NULL;\n"
            pre = pre "    if (!(" c " = rd_fg_tmp(s_" a ", sizeof *" c ", " n ")))\n        goto nomem_;\n"
            # (copied in whatever the intent: elements the call leaves alone,
            # MPI_CART_GET's beyond the communicator's dimensions, stay)
            pre = pre "    for (int i_ = 0; i_ < " n "; i_++)\n        " c "[i_] = " a "[i_] != 0;\n"
            if (aintent[i, j] != "in")
                post = post "        for (int i_ = 0; i_ < " n "; i_++)\n            " a "[i_] = " c "[i_] ? 1 : 0;\n"
            frees = frees "    rd_fg_free(" c ", s_" a ");\n"
            t = c
            tmp = 1
        } else if (k == "logical") {
            if (inl)
                t = "*" a " != 0"
            else {
                decl = decl "    int " c " = " (aintent[i, j] == "inout" ? "*" a " != 0" : "0") ";\n"
                t = "&" c
                post = post "        *" a " = " c " ? 1 : 0;\n"
            }
        } else if (k == "string") {
            if (inl) {
                # (trim: leading blanks dropped too, info keys and values)
                decl = decl "    char *" c " = NULL;\n"
                pre = pre "    if (!(" c " = rd_fg_str_in(" a ", " a "_len, " (has(i, j, "trim") ? 1 : 0) ")))\n        goto nomem_;\n"
                frees = frees "    free(" c ");\n"
                tmp = 1
            } else {
                if (n == "")
                    err("mpi.api: MPI_" fname[i] ": an out string needs its C size, string[SIZE]")
                if (n ~ /^\*/) {
                    # a size given by an argument (MPI_INFO_GET's valuelen):
                    # that many characters and the NUL, on the heap
                    decl = decl "    char *" c " = NULL;\n"
                    pre = pre "    if (!(" c " = calloc((size_t)rd_fg_n(" n ") + 1, 1)))\n        goto nomem_;\n"
                    frees = frees "    free(" c ");\n"
                    tmp = 1
                } else
                    decl = decl "    char " c "[" n "] = \"\";\n"
                # (when=FLAG: written only if the LOGICAL FLAG comes back true)
                if (flagval(i, j, "when") != "")
                    post = post "        if (c_" flagval(i, j, "when") ")\n    "
                post = post "        rd_fg_str_out(" a ", " a "_len, " c ");\n"
            }
            t = c
        } else if (k == "Status") {
            if (n == "" && aintent[i, j] == "inout") {
                # (MPI_STATUS_SET_ELEMENTS: read, changed, written back)
                decl = decl "    MPI_Status " c ";\n"
                pre = pre "    memcpy(&" c ", " a ", sizeof " c ");\n"
                always = always "    memcpy(" a ", &" c ", sizeof " c ");\n"
                t = "&" c
            } else if (n == "") {
                if (inl) {
                    decl = decl "    MPI_Status " c ";\n"
                    pre = pre "    memcpy(&" c ", " a ", sizeof " c ");\n"
                    t = "&" c
                } else {
                    decl = decl "    MPI_Status " c " = {0};\n"
                    t = (has(i, j, "ignore") ? "rd_fg_status_ignored(" a ") ? MPI_STATUS_IGNORE : " : "") "&" c
                    # (also on errors: MPI_ERR_TRUNCATE's status says what came)
                    if (has(i, j, "ignore"))
                        always = always "    if (!rd_fg_status_ignored(" a "))\n        memcpy(" a ", &" c ", sizeof " c ");\n"
                    else
                        always = always "    memcpy(" a ", &" c ", sizeof " c ");\n"
                }
            } else {
                if (inl)
                    err("mpi.api: MPI_" fname[i] ": Status arrays in are not handled yet")
                decl = decl "    MPI_Status s_" a "[RD_FG_STACK], *" c " = NULL;\n"
                pre = pre "    if (" (has(i, j, "ignore") ? "!rd_fg_status_ignored(" a ") && " : "") "!(" c " = rd_fg_tmp(s_" a ", sizeof *" c ", " n ")))\n        goto nomem_;\n"
                t = c " ? " c " : MPI_STATUSES_IGNORE"
                # (filled=NAME: only the first *NAME are written, MPI_WAITSOME's)
                post = post "        if (" c ")\n            memcpy(" a ", " c ", (size_t)rd_fg_n(" \
                    (flagval(i, j, "filled") != "" ? argval(i, j, flagval(i, j, "filled")) : n) ") * sizeof *" c ");\n"
                frees = frees "    rd_fg_free(" c ", s_" a ");\n"
                tmp = 1
            }
        } else if (is_handle(k)) {
            if (n == "") {
                if (inl)
                    t = "PMPI_" conv(k) "_f2c(*" a ")"
                else if (has(i, j, "late")) {
                    # (MPI_COMM_IDUP's newcomm, written again at completion:
                    # the library writes the Fortran handle itself, see
                    # rd_mpi_f_idup_out; the glue only if no idup took it)
                    if (k != "Comm" || aintent[i, j] != "out")
                        err("mpi.api: MPI_" fname[i] ": late is for a Comm out")
                    decl = decl "    MPI_Comm " c " = MPI_COMM_NULL;\n"
                    pre = pre "    rd_mpi_f_idup_out(&" c ", " a ");\n"
                    t = "&" c
                    always = always "    if (!rd_mpi_f_idup_taken() && rc_ == MPI_SUCCESS)\n        *" a " = PMPI_Comm_c2f(" c ");\n"
                } else {
                    decl = decl "    MPI_" k " " c " = " (aintent[i, j] == "inout" ? "PMPI_" conv(k) "_f2c(*" a ")" : "(MPI_" k ")0") ";\n"
                    t = "&" c
                    if (aintent[i, j] == "inout")
                        always = always "    *" a " = PMPI_" conv(k) "_c2f(" c ");\n"
                    else
                        post = post "        *" a " = PMPI_" conv(k) "_c2f(" c ");\n"
                }
            } else {
                decl = decl "    MPI_" k " s_" a "[RD_FG_STACK], *" c " = NULL;\n"
                pre = pre "    if (!(" c " = rd_fg_tmp(s_" a ", sizeof *" c ", " n ")))\n        goto nomem_;\n"
                if (aintent[i, j] != "out")
                    pre = pre "    for (int i_ = 0; i_ < " n "; i_++)\n        " c "[i_] = PMPI_" conv(k) "_f2c(" a "[i_]);\n"
                if (aintent[i, j] == "inout")
                    always = always "    for (int i_ = 0; i_ < " n "; i_++)\n        " a "[i_] = PMPI_" conv(k) "_c2f(" c "[i_]);\n"
                else if (aintent[i, j] == "out")
                    post = post "        for (int i_ = 0; i_ < " n "; i_++)\n            " a "[i_] = PMPI_" conv(k) "_c2f(" c "[i_]);\n"
                frees = frees "    rd_fg_free(" c ", s_" a ");\n"
                t = c
                tmp = 1
            }
        } else {
            err("mpi.api: MPI_" fname[i] ": argument " a " has an unknown kind " k)
            t = "0"
        }
        call = call (j > 1 ? ", " : "") t
    }
    gline("void pmpi_" low "_(" params ")")
    gline("{")
    gline("    int rc_;")
    printf "%s", decl > gout
    printf "%s", pre > gout
    gline("    rc_ = MPI_" fname[i] "(" call ");")
    printf "%s", always > gout
    if (post != "") {
        gline("    if (rc_ == MPI_SUCCESS || rc_ == MPI_ERR_IN_STATUS) {")
        printf "%s", post > gout
        gline("    }")
    }
    if (tmp) {
        gline("    goto out_;")
        gline("nomem_:")
        gline("    rc_ = rd_fg_nomem();")
        gline("out_:")
        printf "%s", frees > gout
    }
    gline("    if (ierr)")
    gline("        *ierr = rc_;")
    gline("}")
}
function write_glue(   i) {
    gout = outdir "/fglue.c.tmp"
    gline("/* fglue.c - the C glue of rdmpi's Fortran bindings (librdmpifort).")
    gline(" * Generated by runtime/fortran/gen.awk from runtime/api/mpi.api and")
    gline(" * include/mpi.h: do not edit. Each MPI_X is a strong pmpi_x_ and a weak")
    gline(" * mpi_x_ that convert the Fortran arguments (runtime/fortran/fglue.h)")
    gline(" * and call the C MPI_X, so C profiling tools see Fortran calls too. */")
    gline("#include \"config.h\"")
    gline("")
    gline("#include \"runtime/fortran/fglue.h\"")
    for (i = 1; i <= nfn; i++) {
        glue_fn(i)
        glue_f08(i)
    }
    glue_f08_ops()
    write_sizeof()
    close(gout)
}

# ---------------------------------------------------------------- mpi_f08
# The standard's removed functions (MPI-1 attribute and error-handler
# calls, MPI_ADDRESS, MPI_TYPE_EXTENT ...): in mpif.h and the mpi module
# when mpi.api describes them, never in mpi_f08 (nor what an `mpi1` record
# names, the MPI-1 branch's list of them).
function f08_skip(i) {
    return fname[i] in mpi1 || fname[i] ~ /^(Keyval_create|Keyval_free|Attr_put|Attr_get|Attr_delete|Address|Type_extent|Type_lb|Type_ub|Type_hvector|Type_hindexed|Type_struct|Errhandler_create|Errhandler_set|Errhandler_get)$/
}
# does function i take a choice buffer (mpi_f08: a BIND(C) specific _f08ts
# over a descriptor, else an interface over the glue's alias _f08)?
function f08_choice(i,   j) {
    for (j = 1; j <= fnargs[i]; j++)
        if (akind[i, j] == "choice")
            return 1
    return 0
}
# are function i's buffers ASYNCHRONOUS (nonblocking, persistent, one-sided)?
function f08_async(i,   j) {
    for (j = 1; j <= fnargs[i]; j++)
        if (akind[i, j] == "Request")
            return 1
    return fname[i] ~ /^(Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|Win_create|Win_attach|Buffer_attach)$/
}
# the count and datatype of choice argument j: the two arguments after it
# (other choice arguments skipped), a scalar int and a scalar Datatype in,
# used by no other choice argument (MPI_REDUCE's sendbuf and recvbuf share
# theirs: no section type then). Sets pcount[i, j], ptype[i, j] (0: none).
function f08_pairs(i,   j, m, cnt) {
    split("", cnt)
    for (j = 1; j <= fnargs[i]; j++) {
        pcount[i, j] = 0
        ptype[i, j] = 0
        if (akind[i, j] != "choice")
            continue
        for (m = j + 1; m <= fnargs[i] && akind[i, m] == "choice"; m++)
            ;
        if (m < fnargs[i] && akind[i, m] == "int" && aintent[i, m] == "in" && alen[i, m] == "" &&
            akind[i, m + 1] == "Datatype" && aintent[i, m + 1] == "in" && alen[i, m + 1] == "") {
            pcount[i, j] = m
            ptype[i, j] = m + 1
            cnt[m]++
        }
    }
    for (j = 1; j <= fnargs[i]; j++)
        if (pcount[i, j] && cnt[pcount[i, j]] > 1) {
            pcount[i, j] = 0
            ptype[i, j] = 0
        }
}
# the glue of mpi_f08 for function i: aliases pmpi_x_f08_ (strong) and
# mpi_x_f08_ (weak) of pmpi_x_ when it has no choice buffer (mpi_f08's
# TYPE(MPI_X) handles and statuses are the INTEGERs the glue takes); else
# pmpi_x_f08ts_ and a weak mpi_x_f08ts_ that take the buffers as
# descriptors (fsection.c) and call pmpi_x_.
function glue_f08(i,   j, m, a, low, params, rt, call, hid, errc, errw, secs, done) {
    if (f08_skip(i) || !(fname[i] in pret) && fret[i] != "none")
        return
    low = tolower(fname[i])
    rt = fret[i] == "int" ? "void" : fret[i]
    # (a discard argument, MPI_BUFFER_DETACH's address: mpi_f08 wants it, a
    # TYPE(C_PTR), so these get a copy of the glue that writes it)
    for (j = 1; j <= fnargs[i]; j++)
        if (akind[i, j] == "discard") {
            glue_sfx = "_f08"
            glue_fn(i)
            glue_sfx = ""
            return
        }
    if (fret[i] == "none") {
        # (choice buffers: descriptors, as every _f08ts specific takes them)
        params = ""
        for (j = 1; j <= fnargs[i]; j++)
            params = params (params == "" ? "" : ", ") (akind[i, j] == "choice" ? "CFI_cdesc_t *" aname[i, j] : fctype(i, j) aname[i, j])
        glue_none(i, f08_choice(i) ? "_f08ts" : "_f08", params == "" ? "void" : params)
        return
    }
    if (!f08_choice(i)) {
        params = glue_params(i)
        gline(rt " pmpi_" low "_f08_(" params ") __attribute__((alias(\"pmpi_" low "_\")));")
        gline(rt " mpi_" low "_f08_(" params ") __attribute__((weak, alias(\"pmpi_" low "_\")));")
        return
    }
    f08_pairs(i)
    params = ""
    for (j = 1; j <= fnargs[i]; j++) {
        a = aname[i, j]
        if (akind[i, j] == "choice" || akind[i, j] == "string")
            params = params (params == "" ? "" : ", ") "CFI_cdesc_t *" a
        else if (akind[i, j] == "logical" || akind[i, j] == "proc" || cabsent(akind[i, j]))
            err("mpi.api: MPI_" fname[i] ": mpi_f08 takes no " akind[i, j] " argument beside a choice buffer yet")
        else
            params = params (params == "" ? "" : ", ") fctype(i, j) a
    }
    params = params ", MPI_Fint *ierr"
    # the object whose error handler hears of a section it cannot take
    errc = "MPI_COMM_NULL"
    errw = "MPI_WIN_NULL"
    for (j = fnargs[i]; j >= 1; j--)
        if (alen[i, j] == "" && aintent[i, j] != "out") {
            if (akind[i, j] == "Comm")
                errc = "PMPI_Comm_f2c(*" aname[i, j] ")"
            else if (akind[i, j] == "Win")
                errw = "PMPI_Win_f2c(*" aname[i, j] ")"
        }
    gline("")
    gline("/* mpi_f08's MPI_" fname[i] "_f08ts: buffers as descriptors */")
    gline("void pmpi_" low "_f08ts_(" params ");")
    gline("void mpi_" low "_f08ts_(" params ");")
    gline("#pragma weak mpi_" low "_f08ts_ = pmpi_" low "_f08ts_")
    gline("void pmpi_" low "_f08ts_(" params ")")
    gline("{")
    gline("    int rc_ = MPI_SUCCESS;")
    secs = ""
    for (j = 1; j <= fnargs[i]; j++)
        if (akind[i, j] == "choice") {
            a = aname[i, j]
            gline("    rd_fg_sec s_" a " = {0};")
            secs = secs "    if (rc_ == MPI_SUCCESS)\n        rc_ = rd_fg_section(&s_" a ", " a ", " \
                (pcount[i, j] ? aname[i, pcount[i, j]] : "NULL") ", " (ptype[i, j] ? aname[i, ptype[i, j]] : "NULL") ", " \
                (has(i, j, "address") ? 1 : 0) ", " (f08_async(i) ? 1 : 0) ", " (aintent[i, j] == "in" ? 0 : 1) ", " errc ", " errw ", \"MPI_" fname[i] "\", \"" a "\");\n"
            done = done "    rd_fg_sec_done(&s_" a ");\n"
        }
    printf "%s", secs > gout
    call = ""
    hid = ""
    for (j = 1; j <= fnargs[i]; j++) {
        a = aname[i, j]
        m = ""
        if (akind[i, j] == "choice")
            m = "s_" a ".addr"
        else if (akind[i, j] == "string") {
            m = "(char *)" a "->base_addr"
            hid = hid ", " a "->elem_len"
        } else
            for (m = 1; m <= fnargs[i]; m++)
                if (akind[i, m] == "choice" && pcount[i, m] == j) {
                    m = "&s_" aname[i, m] ".count"
                    break
                } else if (akind[i, m] == "choice" && ptype[i, m] == j) {
                    m = "&s_" aname[i, m] ".type"
                    break
                }
        if (m ~ /^[0-9]+$/)
            m = a
        call = call m ", "
    }
    gline("    if (rc_ == MPI_SUCCESS)")
    gline("        pmpi_" low "_(" call "&rc_" hid ");")
    printf "%s", done > gout
    done = ""
    gline("    if (ierr)")
    gline("        *ierr = rc_;")
    gline("}")
}
# == and /= of mpi_f08's handle types: C functions of the glue
# (rd_mpi_f08_KIND_eq_, _ne_) comparing the one INTEGER
function glue_f08_ops(   k, n) {
    gline("")
    gline("/* mpi_f08's == and /= on TYPE(MPI_Comm) ... (LOGICAL results: 1 or 0) */")
    for (k = 1; k <= nhk; k++) {
        n = tolower(hkname[k])
        gline("int rd_mpi_f08_" n "_eq_(const MPI_Fint *a, const MPI_Fint *b);")
        gline("int rd_mpi_f08_" n "_eq_(const MPI_Fint *a, const MPI_Fint *b)")
        gline("{")
        gline("    return *a == *b;")
        gline("}")
        gline("int rd_mpi_f08_" n "_ne_(const MPI_Fint *a, const MPI_Fint *b);")
        gline("int rd_mpi_f08_" n "_ne_(const MPI_Fint *a, const MPI_Fint *b)")
        gline("{")
        gline("    return *a != *b;")
        gline("}")
    }
}

# the Fortran declaration of argument j of function i in an mpi_f08
# interface ("" when Fortran has none); bindc: the _f08ts specific, BIND(C)
function f08decl(i, j, bindc,   k, a, t, dim, it) {
    k = akind[i, j]
    a = aname[i, j]
    dim = alen[i, j] == "" ? "" : "(*)"
    it = aintent[i, j] == "in" ? ", INTENT(IN)" : aintent[i, j] == "out" ? ", INTENT(OUT)" : ", INTENT(INOUT)"
    if (cabsent(k))
        return ""
    if (k == "proc") {
        if (flagval(i, j, "iface") == "")
            err("mpi.api: MPI_" fname[i] ": proc " a " needs iface=NAME (mpi_f08's abstract interface)")
        return "PROCEDURE(" flagval(i, j, "iface") ") :: " a
    }
    if (k == "choice")
        # (assumed type: no INTENT(OUT); the standard gives out buffers none)
        return "TYPE(*), DIMENSION(..)" (f08_async(i) || has(i, j, "async") ? ", ASYNCHRONOUS" : "") (aintent[i, j] == "in" ? it : "") " :: " a
    if (k == "string") {
        t = "CHARACTER(LEN=*)"
        dim = ""
    } else if (k == "Status" || k == "f08status")
        t = "TYPE(MPI_Status)"
    else if (k == "fstatus") {
        t = "INTEGER"
        dim = "(MPI_STATUS_SIZE)"
    }
    else if (k == "ranges") {
        t = "INTEGER"
        dim = "(3, *)"
    } else if (k == "int")
        t = "INTEGER"
    else if (is_handle(k))
        t = "TYPE(MPI_" k ")"
    else if (k == "logical")
        t = "LOGICAL"
    else if (k == "aint" || k == "aintval" || k == "attr")
        t = "INTEGER(KIND=MPI_ADDRESS_KIND)"
    else if (k == "baseptr" || k == "discard")
        t = "TYPE(C_PTR)"
    else if (k == "offset")
        t = "INTEGER(KIND=MPI_OFFSET_KIND)"
    else if (k == "count")
        t = "INTEGER(KIND=MPI_COUNT_KIND)"
    else if (k == "double")
        t = "DOUBLE PRECISION"
    else {
        err("mpi.api: MPI_" fname[i] ": argument " a " has a kind mpi_f08 does not know: " k)
        return ""
    }
    # (late: MPI_COMM_IDUP's newcomm, which the library may write again at
    # completion: ASYNCHRONOUS, as the standard declares it)
    return t it (has(i, j, "late") ? ", ASYNCHRONOUS" : "") " :: " a dim
}
# the generic PREFIX_X of function i with its specific PREFIX_X_f08(ts)
function f08interface(i, prefix,   j, args, d, nm, sp, ch, kw) {
    nm = prefix "_" fname[i]
    ch = f08_choice(i)
    sp = nm (ch ? "_f08ts" : "_f08")
    args = ""
    for (j = 1; j <= fnargs[i]; j++)
        if (!cabsent(akind[i, j]))
            args = args (args == "" ? "" : ", ") aname[i, j]
    mline("      INTERFACE " nm)
    if (fret[i] == "int" || fret[i] == "none") {
        if (fret[i] == "int")
            args = args (args == "" ? "" : ", ") "ierror"
        kw = "SUBROUTINE"
        mstmt("    ", "SUBROUTINE " sp "(" args ")" (ch ? " BIND(C, name=\"" tolower(sp) "_\")" : ""))
    } else {
        kw = "FUNCTION"
        mstmt("    ", "FUNCTION " sp "(" args ") RESULT(rd_result)")
    }
    mline("      IMPORT")
    mline("      IMPLICIT NONE")
    for (j = 1; j <= fnargs[i]; j++) {
        d = f08decl(i, j, ch)
        if (d != "")
            mstmt("      ", d)
    }
    if (fret[i] == "int")
        mline("      INTEGER, OPTIONAL, INTENT(OUT) :: ierror")
    else if (fret[i] == "double")
        mline("      DOUBLE PRECISION :: rd_result")
    else if (fret[i] == "MPI_Aint")
        mline("      INTEGER(KIND=MPI_ADDRESS_KIND) :: rd_result")
    mline("    END " kw " " sp)
    mline("      END INTERFACE " nm)
}
# the types, constants, special objects, operators and callback interfaces
# of mpi_f08 (and pmpi_f08): module mpi_f08_types
function write_f08types(   i, k, j, v, n, t, dims, nm, kinds, tys, w, cw) {
    fout = outdir "/mpi_f08_types.f90.tmp"
    fcom("mpi_f08_types.f90 - the types and constants of rdmpi's mpi_f08 and pmpi_f08")
    fcom("modules. Generated by runtime/fortran/gen.awk from runtime/api/mpi.api and")
    fcom("include/mpi.h: do not edit. No code: == and /= are C functions of")
    fcom("librdmpifort, the special objects librdmpi's variables (BIND(C)).")
    mline("MODULE mpi_f08_types")
    mline("      USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    mline("      IMPLICIT NONE")
    mline("      PRIVATE :: C_PTR")
    fcom("")
    fcom("Handles: one INTEGER, the value of mpif.h and the mpi module")
    for (k = 1; k <= nhk; k++) {
        mline("      TYPE, BIND(C) :: MPI_" hkname[k])
        mline("        INTEGER :: MPI_VAL")
        mline("      END TYPE MPI_" hkname[k])
    }
    fcom("The status: C's MPI_F08_status (mpi.h), MPI_F_STATUS_SIZE INTEGERs")
    mline("      TYPE, BIND(C) :: MPI_Status")
    mline("        INTEGER :: MPI_SOURCE, MPI_TAG, MPI_ERROR")
    mline("        INTEGER, PRIVATE :: rd_internal(" (hdef["MPI_F_STATUS_SIZE"] - 3) ")")
    mline("      END TYPE MPI_Status")
    fcom("")
    fcom("Integer constants of mpi.h (string maxima one less than C's)")
    for (i = 1; i <= nhd; i++) {
        if (hdorder[i] ~ /^MPI_F_/)
            continue
        v = hdef[hdorder[i]]
        if (hdorder[i] ~ /^MPI_MAX_/)
            v--
        mline("      INTEGER, PARAMETER :: " hdorder[i] " = " v)
    }
    fcom("Fortran-only constants")
    for (i = 1; i <= ncst; i++) {
        v = cstname[i] in cst08 ? cst_value(cst08[cstname[i]]) : cst_value(cstexpr[i])
        mline("      " (v ~ /^\./ ? "LOGICAL" : "INTEGER") ", PARAMETER :: " cstname[i] " = " v)
    }
    fcom("Handles: kind * 2**24 + index, index 0 the kind's _NULL")
    for (k = 1; k <= nhk; k++)
        for (j = 0; j < hcount[k]; j++)
            mstmt("      ", "TYPE(MPI_" hkname[k] "), PARAMETER :: " hitem[k, j] " = MPI_" hkname[k] "(" (hkcode[k] * 16777216 + j) ")")
    fcom("")
    fcom("Special objects: librdmpi's variables, known by their addresses")
    for (i = 1; i <= nsp; i++) {
        t = sptype[i]
        dims = "(" spdims[i] ")"
        if (spdims[i] == "MPI_STATUS_SIZE") {
            t = "TYPE(MPI_Status)"
            dims = ""
        } else if (spdims[i] == "MPI_STATUS_SIZE,1") {
            t = "TYPE(MPI_Status)"
            dims = "(1)"
        } else if (spname[i] ~ /^MPI_(BOTTOM|IN_PLACE)$/)
            dims = "" # (given as choice buffers: scalars)
        mline("      " t ", BIND(C, name=\"" spsym[i] "_\") :: " spname[i] dims)
    }
    fcom("")
    fcom("== and /= on handles of one type: ELEMENTAL (arrays of handles compare")
    fcom("element by element), C functions of librdmpifort called by reference")
    for (w = 1; w <= 2; w++) {
        mline("      INTERFACE OPERATOR(" (w == 1 ? "==" : "/=") ")")
        for (k = 1; k <= nhk; k++) {
            nm = "rd_mpi_f08_" tolower(hkname[k]) (w == 1 ? "_eq" : "_ne")
            mline("        ELEMENTAL LOGICAL FUNCTION " nm "(a, b)")
            mline("          IMPORT :: MPI_" hkname[k])
            mline("          TYPE(MPI_" hkname[k] "), INTENT(IN) :: a, b")
            mline("        END FUNCTION " nm)
        }
        mline("      END INTERFACE")
    }
    for (k = 1; k <= nhk; k++)
        mline("      PRIVATE :: rd_mpi_f08_" tolower(hkname[k]) "_eq, rd_mpi_f08_" tolower(hkname[k]) "_ne")
    fcom("")
    fcom("Callbacks (the Fortran procedures MPI calls, by reference as in mpif.h)")
    mline("      ABSTRACT INTERFACE")
    mline("        SUBROUTINE MPI_User_function(invec, inoutvec, len, datatype)")
    mline("          IMPORT :: C_PTR, MPI_Datatype")
    mline("          TYPE(C_PTR), VALUE :: invec, inoutvec")
    mline("          INTEGER :: len")
    mline("          TYPE(MPI_Datatype) :: datatype")
    mline("        END SUBROUTINE MPI_User_function")
    split("Comm Type Win", kinds, " ")
    split("MPI_Comm MPI_Datatype MPI_Win", tys, " ")
    for (k = 1; k <= 3; k++) {
        n = tolower(kinds[k])
        mline("        SUBROUTINE MPI_" kinds[k] "_copy_attr_function(old" n ", " n "_keyval, extra_state, &")
        mline("            attribute_val_in, attribute_val_out, flag, ierror)")
        mline("          IMPORT :: " tys[k] ", MPI_ADDRESS_KIND")
        mline("          TYPE(" tys[k] ") :: old" n)
        mline("          INTEGER :: " n "_keyval, ierror")
        mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out")
        mline("          LOGICAL :: flag")
        mline("        END SUBROUTINE MPI_" kinds[k] "_copy_attr_function")
        mline("        SUBROUTINE MPI_" kinds[k] "_delete_attr_function(" n ", " n "_keyval, attribute_val, extra_state, ierror)")
        mline("          IMPORT :: " tys[k] ", MPI_ADDRESS_KIND")
        mline("          TYPE(" tys[k] ") :: " n)
        mline("          INTEGER :: " n "_keyval, ierror")
        mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: attribute_val, extra_state")
        mline("        END SUBROUTINE MPI_" kinds[k] "_delete_attr_function")
        if (kinds[k] == "Type")
            continue
        mline("        SUBROUTINE MPI_" kinds[k] "_errhandler_function(" n ", error_code)")
        mline("          IMPORT :: " tys[k])
        mline("          TYPE(" tys[k] ") :: " n)
        mline("          INTEGER :: error_code")
        mline("        END SUBROUTINE MPI_" kinds[k] "_errhandler_function")
    }
    # files and sessions have error handlers and no attributes
    mline("        SUBROUTINE MPI_File_errhandler_function(file, error_code)")
    mline("          IMPORT :: MPI_File")
    mline("          TYPE(MPI_File) :: file")
    mline("          INTEGER :: error_code")
    mline("        END SUBROUTINE MPI_File_errhandler_function")
    mline("        SUBROUTINE MPI_Session_errhandler_function(session, error_code)")
    mline("          IMPORT :: MPI_Session")
    mline("          TYPE(MPI_Session) :: session")
    mline("          INTEGER :: error_code")
    mline("        END SUBROUTINE MPI_Session_errhandler_function")
    # generalized requests' callbacks (MPI_Grequest_start)
    mline("        SUBROUTINE MPI_Grequest_query_function(extra_state, status, ierror)")
    mline("          IMPORT :: MPI_Status, MPI_ADDRESS_KIND")
    mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state")
    mline("          TYPE(MPI_Status) :: status")
    mline("          INTEGER :: ierror")
    mline("        END SUBROUTINE MPI_Grequest_query_function")
    mline("        SUBROUTINE MPI_Grequest_free_function(extra_state, ierror)")
    mline("          IMPORT :: MPI_ADDRESS_KIND")
    mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state")
    mline("          INTEGER :: ierror")
    mline("        END SUBROUTINE MPI_Grequest_free_function")
    mline("        SUBROUTINE MPI_Grequest_cancel_function(extra_state, complete, ierror)")
    mline("          IMPORT :: MPI_ADDRESS_KIND")
    mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state")
    mline("          LOGICAL :: complete")
    mline("          INTEGER :: ierror")
    mline("        END SUBROUTINE MPI_Grequest_cancel_function")
    # data representations' callbacks (MPI_Register_datarep): the buffers'
    # addresses by value are the addresses mpif.h's arrays pass
    mline("        SUBROUTINE MPI_Datarep_conversion_function(userbuf, datatype, count, filebuf, position, &")
    mline("            extra_state, ierror)")
    mline("          IMPORT :: C_PTR, MPI_Datatype, MPI_OFFSET_KIND, MPI_ADDRESS_KIND")
    mline("          TYPE(C_PTR), VALUE :: userbuf, filebuf")
    mline("          TYPE(MPI_Datatype) :: datatype")
    mline("          INTEGER :: count, ierror")
    mline("          INTEGER(KIND=MPI_OFFSET_KIND) :: position")
    mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state")
    mline("        END SUBROUTINE MPI_Datarep_conversion_function")
    mline("        SUBROUTINE MPI_Datarep_extent_function(datatype, extent, extra_state, ierror)")
    mline("          IMPORT :: MPI_Datatype, MPI_ADDRESS_KIND")
    mline("          TYPE(MPI_Datatype) :: datatype")
    mline("          INTEGER(KIND=MPI_ADDRESS_KIND) :: extent, extra_state")
    mline("          INTEGER :: ierror")
    mline("        END SUBROUTINE MPI_Datarep_extent_function")
    mline("      END INTERFACE")
    fcom("Predefined callbacks (C functions of librdmpifort)")
    # (MPI_COMM_NULL_COPY_FN ...; the removed MPI-1 ones, MPI_NULL_COPY_FN,
    # MPI_DUP_FN, MPI_NULL_DELETE_FN, are not in mpi_f08)
    n = split(cbnames, cw, " ")
    for (i = 1; i <= n; i++) {
        t = cw[i]
        if (t in cbiface) {
            mline("      PROCEDURE(" cbiface[t] ") :: " t)
            continue
        }
        if (t !~ /^MPI_(COMM|TYPE|WIN)_/ || t in mpi1)
            continue
        sub(/^MPI_/, "", t)
        k = substr(t, 1, index(t, "_") - 1)
        k = substr(k, 1, 1) tolower(substr(k, 2))
        mline("      PROCEDURE(MPI_" k "_" (t ~ /DELETE/ ? "delete" : "copy") "_attr_function) :: " cw[i])
    }
    mline("END MODULE mpi_f08_types")
    close(fout)
}
# module mpi_f08 (prefix MPI) or pmpi_f08 (PMPI): the generics
function write_f08mod(prefix,   i, s, mod) {
    mod = tolower(prefix) "_f08"
    fout = outdir "/" mod ".f90.tmp"
    fcom(mod ".f90 - rdmpi's " mod " module (use " mod "). Generated by")
    fcom("runtime/fortran/gen.awk from runtime/api/mpi.api and include/mpi.h: do")
    fcom("not edit. One generic " prefix "_X per function: its specific " prefix "_X_f08ts")
    fcom("(choice buffers: TYPE(*), DIMENSION(..), BIND(C): librdmpifort's")
    fcom("descriptor glue) or " prefix "_X_f08 (the glue's alias of " tolower(prefix) "_x_); ierror OPTIONAL.")
    mline("MODULE " mod)
    mline("      USE mpi_f08_types")
    mline("      USE, INTRINSIC :: ISO_C_BINDING, ONLY : C_PTR")
    mline("      IMPLICIT NONE")
    mline("      PRIVATE :: C_PTR")
    fcom("")
    fcom(prefix "_SIZEOF: the size of a variable of each intrinsic type, any rank")
    mline("      INTERFACE " prefix "_SIZEOF")
    for (i = 1; i <= nsz; i++) {
        mline("    SUBROUTINE mpi_sizeof_" szname[i] "(x, size, ierror)")
        mline("      " sztype[i] ", DIMENSION(..) :: x")
        mline("      INTEGER, INTENT(OUT) :: size")
        mline("      INTEGER, OPTIONAL, INTENT(OUT) :: ierror")
        mline("    END SUBROUTINE mpi_sizeof_" szname[i])
    }
    mline("      END INTERFACE " prefix "_SIZEOF")
    s = ""
    for (i = 1; i <= nsz; i++)
        s = s (i > 1 ? ", " : "") "mpi_sizeof_" szname[i]
    mstmt("      ", "PRIVATE :: " s)
    fcom("")
    for (i = 1; i <= nfn; i++)
        if (!f08_skip(i))
            f08interface(i, prefix)
    mline("END MODULE " mod)
    close(fout)
}

# ---------------------------------------------------------------- the handle check
function write_fhandles(   k, j, n) {
    hout = outdir "/fhandles.c.tmp"
    print "/* fhandles.c - each handle PARAMETER of mpif.h is MPI_*_c2f of its C" > hout
    print " * handle. Generated by runtime/fortran/gen.awk: do not edit. */" > hout
    print "#include <mpi.h>" > hout
    print "#include <stdio.h>" > hout
    print "" > hout
    print "static int checks, failed;" > hout
    print "" > hout
    print "/* got: MPI_*_c2f of the C handle; back: whether MPI_*_f2c of mpif.h's" > hout
    print " * value is the C handle */" > hout
    print "static void check(const char *name, MPI_Fint got, MPI_Fint expected, int back)" > hout
    print "{" > hout
    print "    checks++;" > hout
    print "    if (got != expected || !back) {" > hout
    print "        failed++;" > hout
    print "        printf(\"not ok %s: MPI_*_c2f gives %d, mpif.h says %d%s\\n\", name, got, expected," > hout
    print "               back ? \"\" : \", which MPI_*_f2c does not take back to it\");" > hout
    print "    }" > hout
    print "}" > hout
    print "" > hout
    print "int main(void)" > hout
    print "{" > hout
    n = 0
    for (k = 1; k <= nhk; k++)
        for (j = 0; j < hcount[k]; j++)
            printf "    check(\"%s\", PMPI_%s_c2f(%s), %d, PMPI_%s_f2c(%d) == %s);\n", hitem[k, j], conv(hkname[k]),
                hitem[k, j], hkcode[k] * 16777216 + j, conv(hkname[k]), hkcode[k] * 16777216 + j, hitem[k, j] > hout
    print "    printf(\"%d handles, %d wrong\\n\", checks, failed);" > hout
    print "    return failed != 0;" > hout
    print "}" > hout
    close(hout)
}

END {
    if (outdir == "")
        err("usage: awk -v outdir=DIR -f gen.awk mpi.api mpi.h")
    if (fileno != 2)
        err("usage: awk -v outdir=DIR -f gen.awk mpi.api mpi.h")
    if (nerr)
        exit 1
    for (k = 1; k <= nhk; k++)
        hkind_code[hkname[k]] = hkcode[k]
    # every function of mpi.h is accounted for: a binding, or c_only / todo
    for (k in pret)
        if (!(k in fnum) && !(k in unbound))
            err("mpi.h declares MPI_" k ", which mpi.api does not describe (fn, c_only or todo)")
    for (k in unbound)
        if (!(k in pret))
            err("mpi.api: MPI_" k " (" unbound[k] ") has no prototype in mpi.h")
    for (k in mpi1)
        if (!(k in fnum) && index(" " cbnames " ", " " k " ") == 0)
            err(mpi1[k] ": mpi1 " k " is neither a fn nor a callback")
    write_mpifh()
    write_module()
    write_f08types()
    write_f08mod("MPI")
    write_f08mod("PMPI")
    write_glue()
    write_fhandles()
    if (nerr)
        exit 1
}
