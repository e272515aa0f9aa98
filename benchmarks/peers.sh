#!/bin/bash
# peers.sh - shmpi's benchmark programs (bench_rma, bench_amo, bench_coll)
# built against another OpenSHMEM library and run beside shmpi's own build,
# so both are measured by the same code on the same machine at the same time.
#
# usage: benchmarks/peers.sh -b BUILDDIR -c PEER_CC -l "PEER_LAUNCHER" [-p NAME]
#                            [-o OUTDIR] [-d PEER_BUILDDIR] [-s "SHMPI_LAUNCHER"]
#                            [-n "2 4"] [-f "CFLAGS"] [-P "rma amo coll"] [-q]
#                            [-- OPTIONS FOR THE PROGRAMS]
#   -b BUILDDIR   shmpi build directory whose benchmarks are built (make bench)
#   -c PEER_CC    the peer's compiler wrapper, e.g. /usr/bin/oshcc.openmpi
#   -l LAUNCHER   the peer's launcher; the script appends "-n NP PROGRAM ARGS",
#                 e.g. "mpirun.openmpi --oversubscribe --mca spml_ucx_opal_mem_hooks 0"
#   -p NAME       the peer's name in file names and tables (default: from -c)
#   -o OUTDIR     where results go (default /tmp/peers-NAME)
#   -d DIR        where the peer's programs are built (default OUTDIR/build-NAME)
#   -s LAUNCHER   shmpi's launcher (default $MPIEXEC or mpiexec)
#   -n LIST       PE counts (default "2 4")
#   -f CFLAGS     compiler flags for the peer build (default "-std=c11 -O2 -g
#                 -Wall -Wextra -D_GNU_SOURCE")
#   -P LIST       programs to build and run (default "rma amo coll"; e.g. -P coll
#                 for the collectives alone, -P "nodes rma amo" between nodes); the
#                 summary shows their rows
#   -N            between nodes: both libraries run through tests/launch-nodes.sh (NP
#                 PEs on 2 emulated nodes, 2=2x1, 4=2x2; as root, MPICH's Hydra, so
#                 the peer must be built on MPICH), which replaces -s and -l
#   -q            quick: shorter timed runs (-t 3 -r 5), for checking the setup
#   -S            only rewrite OUTDIR/summary.md from the tables already there
# Run order: per PE count and program, shmpi and the peer back to back, the
# one that goes first alternating from program to program, so that machine
# noise hits both.  Each run is limited by timeout -k 10 $BENCH_TIMEOUT
# (default 240 s).  shmpi runs in its default mode: SHMPI_* variables in the
# environment are refused.
# Output: OUTDIR/{shmpi,NAME}-bench_<prog>-np<N>.txt (the programs' tables;
# in the peer's, the column headed "shmpi" is the peer library), runs.log
# (commands, times, load), summary.md (headline rows side by side, with the
# ratio of shmpi's time to the peer's: > 1 means shmpi is slower; and where
# the programs measure the memory system's limit in the same job, each
# library's time over its own job's limit and the ratio of the two, which
# the machine's state during each job does not move).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,37p' "$0"; exit "$1"; }

builddir='' peer_cc='' peer_launch='' name='' outdir='' peer_build='' quick='' summary_only=''
np_option=-n
nps="2 4"
progs="rma amo coll"
shmpi_launch=${MPIEXEC:-mpiexec}
cflags="-std=c11 -O2 -g -Wall -Wextra -D_GNU_SOURCE"
while getopts b:c:l:p:o:d:s:n:f:P:qSNh opt; do
    case $opt in
    b) builddir=$OPTARG ;;
    c) peer_cc=$OPTARG ;;
    l) peer_launch=$OPTARG ;;
    p) name=$OPTARG ;;
    o) outdir=$OPTARG ;;
    d) peer_build=$OPTARG ;;
    s) shmpi_launch=$OPTARG ;;
    n) nps=$OPTARG ;;
    f) cflags=$OPTARG ;;
    P) progs=$OPTARG ;;
    q) quick="-t 3 -r 5" ;;
    S) summary_only=1 ;;
    N) np_option= nodes_launch="sh $here/../tests/launch-nodes.sh -l 2=2x1,4=2x2" ;;
    h) usage 0 ;;
    *) usage 2 ;;
    esac
done
shift $((OPTIND - 1))
extra="$quick $*"
if [ -z "$np_option" ]; then
    shmpi_launch=$nodes_launch peer_launch=$nodes_launch
fi
if [ -z "$builddir" ] || [ -z "$peer_cc" ] || [ -z "$peer_launch" ]; then usage 2; fi
[ -n "$name" ] || name=$(basename "$peer_cc")
[ -n "$outdir" ] || outdir=/tmp/peers-$name
[ -n "$peer_build" ] || peer_build=$outdir/build-$name
limit=${BENCH_TIMEOUT:-240}
if env | grep -q '^SHMPI_'; then
    echo "peers.sh: unset the SHMPI_* variables first (shmpi is compared in its default mode)" >&2
    exit 2
fi

for prog in $progs; do
    case $prog in rma | amo | coll | nodes) ;; *) echo "peers.sh: -P: no program $prog" >&2; exit 2 ;; esac
done
status=0
if [ -z "$summary_only" ]; then
    echo "peers.sh: building shmpi's benchmarks in $builddir"
    make -C "$builddir" bench > /dev/null
    for prog in $progs; do
        [ -x "$builddir/benchmarks/bench_$prog" ] ||
            { echo "peers.sh: no bench_$prog in $builddir" >&2; exit 1; }
    done
    mkdir -p "$outdir" "$peer_build"
    echo "peers.sh: building the programs against $name ($peer_cc) in $peer_build"
    for prog in $progs; do
        # shellcheck disable=SC2086
        "$peer_cc" $cflags -I"$here" "$here/bench_$prog.c" "$here/bench.c" \
            "$here/bench_stats.c" -o "$peer_build/bench_$prog" 2> "$peer_build/bench_$prog.log" ||
            { cat "$peer_build/bench_$prog.log" >&2; exit 1; }
    done

    log=$outdir/runs.log
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "host: $(uname -n) $(uname -srm); $(nproc) online CPUs;" \
            "$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
        echo "shmpi: $(git -C "$here/.." log -1 --format='%h %s' 2> /dev/null || echo '?')," \
            "build $builddir"
        echo "peer $name: $peer_cc ($("$peer_cc" --version 2> /dev/null | head -1))," \
            "built with $cflags"
        echo "program options: $extra"
        echo "load at start: $(cat /proc/loadavg)"
    } > "$log"

    # run LABEL NP PROGRAM LAUNCHER...: one timed program run, its table in
    # OUTDIR/LABEL-bench_<prog>-np<N>.txt; runnable tasks are sampled once a
    # second (more than NP + 1, this job and the sampler, means competition).
    run() {
        local label=$1 np=$2 prog=$3
        shift 3
        local out samples=$outdir/.runnable rc=0
        out=$outdir/$label-$(basename "$prog")-np$np.txt
        echo "peers.sh: $label: $* ${np_option:+$np_option }$np $prog $extra"
        (while :; do read -r _ _ _ r _ < /proc/loadavg; echo "${r%/*}"; sleep 1; done) > "$samples" &
        local sampler=$! t0
        t0=$(date +%s)
        # shellcheck disable=SC2086
        timeout -k 10 "$limit" "$@" $np_option "$np" "$prog" $extra > "$out" 2>&1 || rc=$?
        kill "$sampler" 2> /dev/null || true
        wait "$sampler" 2> /dev/null || true
        local busy
        busy=$(awk -v np="$np" '{n++; s+=$1; if ($1>m) m=$1; if ($1>np+1) o++}
            END {if (n) printf "runnable mean %.1f, max %d, %d of %d samples above %d",
                               s/n, m, o, n, np+1}' "$samples")
        rm -f "$samples"
        echo "\$ timeout -k 10 $limit $* ${np_option:+$np_option }$np $prog $extra: status $rc, $(( $(date +%s) - t0 )) s," \
            "load after $(cut -d' ' -f1-3 /proc/loadavg); $busy" >> "$log"
        if [ "$rc" -ne 0 ]; then
            echo "peers.sh: $label $(basename "$prog") on $np PEs FAILED (status $rc), see $out" >&2
            status=1
        fi
    }

    turn=0
    for np in $nps; do
        for prog in $progs; do
            # shellcheck disable=SC2086
            if [ $((turn % 2)) -eq 0 ]; then
                run shmpi "$np" "$builddir/benchmarks/bench_$prog" $shmpi_launch
                run "$name" "$np" "$peer_build/bench_$prog" $peer_launch
            else
                run "$name" "$np" "$peer_build/bench_$prog" $peer_launch
                run shmpi "$np" "$builddir/benchmarks/bench_$prog" $shmpi_launch
            fi
            turn=$((turn + 1))
        done
    done
    echo "load at end: $(cat /proc/loadavg)" >> "$log"
fi

# cell FILE TITLE_PREFIX BYTES WHAT: from the table whose "## " title starts
# with TITLE_PREFIX, the row of BYTES, the library's column (the first after
# "|"): WHAT is med (med_us), bw (GB/s) or rate (the last number); "-" if absent.
cell() {
    [ -f "$1" ] || { echo -; return; }
    awk -v pre="## $2" -v bytes="$3" -v what="$4" '
        /^## / { intable = index($0, pre) == 1; next }
        intable && $1 == bytes && $2 == "|" {
            split($0, part, "|"); n = split(part[2], w, " ")
            v = what == "med" ? w[2] : what == "bw" ? w[3] : w[n]
            print (v == "" ? "-" : v); found = 1; exit
        }
        END { if (!found) print "-" }' "$1"
}

# limcell FILE TITLE_PREFIX BYTES COLUMN: from the same row, the med_us of the
# reference column named COLUMN (its header name, "*" ignored); "-" if absent.
limcell() {
    [ -f "$1" ] || { echo -; return; }
    awk -v pre="## $2" -v bytes="$3" -v col="$4" '
        /^## / { intable = index($0, pre) == 1; k = 0; next }
        intable && !k && /^# / && index($0, "|") {
            n = split($0, part, "|")
            for (i = 2; i <= n; i++) { name = part[i]; gsub(/[ *]/, "", name); if (name == col) k = i }
            next
        }
        intable && k && $1 == bytes && $2 == "|" {
            split($0, part, "|"); split(part[k], w, " ")
            print (w[1] == "" || w[1] == "-" ? "-" : w[1]); found = 1; exit
        }
        END { if (!found) print "-" }' "$1"
}

# The headline rows: label | program | title prefix | bytes | shown value |
# the column of the memory system's limit measured in the same job: memcpy
# or the collective's unsynchronized copies through shmem_ptr for the 1 MiB
# rows, a barrier on cache lines for the barrier and 8-byte collectives
# (how fast lines move between the CPUs changes between jobs here, by up to
# 5x); the legacy tables name theirs "limit" (line to 256 B, copies beyond).  The 8-byte put/get limits are too close to 0 at 3 decimals to
# divide by.
rows='OSU-style put 8 B + quiet (us)|nodes|put 8 B:|8|med|
OSU-style get 8 B (us)|nodes|get 8 B:|8|med|
OSU-style fetch_add, fresh word (us)|nodes|fetch_add, a fresh word|8|med|
OSU-style add, fresh word (us)|nodes|add (non-fetching)|8|med|
OSU-style swap, fresh word (us)|nodes|swap, a fresh word|8|med|
OSU-style compare_swap, fresh word (us)|nodes|compare_swap, a fresh word|8|med|
OSU-style put rate 8 B (Mop/s)|nodes|put rate 8 B:|8|rate|
OSU-style put rate 4 KiB (Mop/s)|nodes|put rate 4 KiB:|4096|rate|
put latency 8 B (us)|rma|put:|8|med|
get latency 8 B (us)|rma|get:|8|med|
put bandwidth 1 MiB (GB/s)|rma|put:|1048576|bw|memcpy
get bandwidth 1 MiB (GB/s)|rma|get:|1048576|bw|memcpy
put_nbi message rate 8 B (Mop/s)|rma|put_nbi:|8|rate|
p latency (us)|rma|p:|8|med|
g latency (us)|rma|g:|8|med|
fetch_add latency (us)|amo|fetch_add:|8|med|
compare_swap latency (us)|amo|compare_swap:|8|med|
add latency (us)|amo|add (non-fetching):|8|med|
barrier_all (us)|coll|barrier_all:|0|med|line
broadcast 8 B (us)|coll|broadcast 8 B|8|med|line
broadcast 1 MiB (us)|coll|broadcast 1 MiB|1048576|med|copies
reduce 8 B (us)|coll|sum reduce, 1 long:|8|med|line
reduce 1 MiB (us)|coll|sum reduce, 1 MiB|1048576|med|
fcollect 8 B (us)|coll|fcollect 8 B|8|med|line
fcollect 1 MiB (us)|coll|fcollect 1 MiB|1048576|med|copies
alltoall 8 B (us)|coll|alltoall 8 B|8|med|line
alltoall 1 MiB (us)|coll|alltoall 1 MiB|1048576|med|copies
legacy broadcast64 8 B (us)|coll|legacy broadcast, all PEs:|8|med|limit
legacy broadcast64 64 KiB (us)|coll|legacy broadcast, all PEs:|65536|med|limit
legacy broadcast64 1 MiB (us)|coll|legacy broadcast, all PEs:|1048576|med|limit
legacy collect64 8 B (us)|coll|legacy collect, all PEs:|8|med|limit
legacy collect64 64 KiB (us)|coll|legacy collect, all PEs:|65536|med|limit
legacy collect64 1 MiB (us)|coll|legacy collect, all PEs:|1048576|med|limit
legacy fcollect64 8 B (us)|coll|legacy fcollect, all PEs:|8|med|limit
legacy fcollect64 64 KiB (us)|coll|legacy fcollect, all PEs:|65536|med|limit
legacy fcollect64 1 MiB (us)|coll|legacy fcollect, all PEs:|1048576|med|limit
legacy long_sum_to_all 8 B (us)|coll|legacy sum_to_all, all PEs:|8|med|limit
legacy long_sum_to_all 64 KiB (us)|coll|legacy sum_to_all, all PEs:|65536|med|
legacy long_sum_to_all 1 MiB (us)|coll|legacy sum_to_all, all PEs:|1048576|med|
legacy broadcast64 PEs 0,2 8 B (us)|coll|legacy broadcast, PEs 0 and 2:|8|med|
legacy broadcast64 PEs 0,2 1 MiB (us)|coll|legacy broadcast, PEs 0 and 2:|1048576|med|
legacy collect64 PEs 0,2 8 B (us)|coll|legacy collect, PEs 0 and 2:|8|med|
legacy collect64 PEs 0,2 1 MiB (us)|coll|legacy collect, PEs 0 and 2:|1048576|med|
legacy fcollect64 PEs 0,2 8 B (us)|coll|legacy fcollect, PEs 0 and 2:|8|med|
legacy fcollect64 PEs 0,2 1 MiB (us)|coll|legacy fcollect, PEs 0 and 2:|1048576|med|
legacy long_sum_to_all PEs 0,2 8 B (us)|coll|legacy sum_to_all, PEs 0 and 2:|8|med|
legacy long_sum_to_all PEs 0,2 1 MiB (us)|coll|legacy sum_to_all, PEs 0 and 2:|1048576|med|'

summary=$outdir/summary.md
{
    echo "| row | PEs | shmpi | $name | shmpi/$name time | limit | shmpi/limit | $name/limit |" \
        "shmpi/$name, each against its limit |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for np in $nps; do
        echo "$rows" | while IFS='|' read -r label prog prefix bytes what limit; do
            case " $progs " in *" $prog "*) ;; *) continue ;; esac
            fa=$outdir/shmpi-bench_$prog-np$np.txt fb=$outdir/$name-bench_$prog-np$np.txt
            a=$(cell "$fa" "$prefix" "$bytes" "$what")
            b=$(cell "$fb" "$prefix" "$bytes" "$what")
            # Bandwidth and rate grow as time shrinks: their time ratio is peer/shmpi.
            ratio=$(awk -v a="$a" -v b="$b" -v what="$what" 'BEGIN {
                if (a == "-" || b == "-" || a + 0 <= 0 || b + 0 <= 0) { print "-"; exit }
                printf "%.2f", what == "med" ? a / b : b / a }')
            # Against the limit, in times: each library's med_us over its own
            # job's limit, so the machine's state during each job cancels.
            la=- lb=- ra=- rb=- rr=-
            if [ -n "$limit" ]; then
                ta=$(cell "$fa" "$prefix" "$bytes" med) tb=$(cell "$fb" "$prefix" "$bytes" med)
                la=$(limcell "$fa" "$prefix" "$bytes" "$limit")
                lb=$(limcell "$fb" "$prefix" "$bytes" "$limit")
                read -r ra rb rr < <(awk -v ta="$ta" -v tb="$tb" -v la="$la" -v lb="$lb" 'BEGIN {
                    ra = (ta + 0 > 0 && la + 0 > 0) ? ta / la : 0
                    rb = (tb + 0 > 0 && lb + 0 > 0) ? tb / lb : 0
                    printf "%s %s %s\n", ra ? sprintf("%.2f", ra) : "-", rb ? sprintf("%.2f", rb) : "-",
                           ra && rb ? sprintf("%.2f", ra / rb) : "-" }')
            fi
            echo "| $label | $np | $a | $b | $ratio | ${limit:--} | $ra | $rb | $rr |"
        done
    done
} > "$summary"
cat "$summary"
echo "peers.sh: tables and summary.md in $outdir; commands and load in runs.log"
exit $status
