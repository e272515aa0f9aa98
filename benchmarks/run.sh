#!/bin/sh
# run.sh - build (if needed) and run the shmpi benchmarks on 2 and 4 PEs, in
# the default mode and with SHMPI_MPI_ONLY=1, saving every table, the
# gnuplot data files and the bandwidth plot.
#
# usage: benchmarks/run.sh [-b BUILDDIR] [-o OUTDIR] [-p PNG] [-n "2 4"]
#                          [-m "default mpi_only"] [-j JOBS] [-P "rma amo coll"] [-q]
#                          [-- OPTIONS FOR THE PROGRAMS]
#   -b BUILDDIR  a configured build directory (default: the current directory
#                if it has a Makefile with a bench target, else /tmp/build-bench,
#                configured with --enable-werror if it has no Makefile yet)
#   -o OUTDIR    where results go (default BUILDDIR/benchmarks/results)
#   -p PNG       where the plot goes (default OUTDIR/bw.png)
#   -n LIST      PE counts (default "2 4")
#   -m LIST      modes (default "default mpi_only mpi_only_amo_add"; the last
#                runs bench_amo alone with SHMPI_MPI_ONLY=1 SHMPI_AMO_OPS=add).
#                Between nodes (as root: tests/launch-nodes.sh, N PEs on 2 emulated
#                nodes, 2=2x1, 4=2x2): "nodes" runs bench_nodes (OSU-style rows
#                against raw MPI on a dynamic window, with their targets) and
#                bench_rma, bench_amo, bench_coll; "nodes_no_thread" the same with
#                SHMPI_PROGRESS_THREAD=0, for what the progress thread costs
#   -j JOBS      run each program JOBS times (default 1), in turns (every mode and
#                program once, then again); a target's verdict is
#                then the median of its value over the jobs, each job's value
#                beside it (some sub-us rows move 10-30% from one job to the
#                next on this VM, with the placement of memory in the job)
#   -P LIST      run only these programs (default: each mode's own list; e.g.
#                -P coll for the collectives alone, -P nodes for bench_nodes)
#   -q           quick: shorter timed runs (-t 3 -r 5), for checking the programs
# Environment: MPIEXEC (default mpiexec), BENCH_TIMEOUT seconds per program
# run (default 240).  Output: OUTDIR/bench_<prog>-np<N>-<mode>.txt, all.txt
# (everything, in order), machine.txt, rma-np<N>-<mode>_{put,get,...}.dat,
# report.md (machine, commands, target verdicts and every table, in Markdown:
# the body of benchmarks/RESULTS.md).
set -u
orig_args="$*"

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(dirname "$here")
builddir=
outdir=
png=
nps="2 4"
modes="default mpi_only mpi_only_amo_add"
quick=
jobs=1
only=
while getopts b:o:p:n:m:j:P:qh opt; do
    case $opt in
    b) builddir=$OPTARG ;;
    o) outdir=$OPTARG ;;
    p) png=$OPTARG ;;
    n) nps=$OPTARG ;;
    m) modes=$OPTARG ;;
    j) jobs=$OPTARG ;;
    P) only=$OPTARG ;;
    q) quick="-t 3 -r 5" ;;
    *) sed -n '2,30p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
extra="$quick $*"

if [ -z "$builddir" ]; then
    if [ -f Makefile ] && grep -q '^bench:' Makefile; then
        builddir=$(pwd)
    else
        builddir=/tmp/build-bench
    fi
fi
mkdir -p "$builddir" || exit 1
builddir=$(cd "$builddir" && pwd)
if [ ! -f "$builddir/Makefile" ]; then
    echo "run.sh: configuring $builddir"
    [ -x "$srcdir/configure" ] || (cd "$srcdir" && ./autogen.sh) || exit 1
    (cd "$builddir" && "$srcdir/configure" --enable-werror) > "$builddir/configure.out" 2>&1 ||
        { echo "run.sh: configure failed, see $builddir/configure.out"; exit 1; }
fi
echo "run.sh: building in $builddir"
make -C "$builddir" -j2 >/dev/null && make -C "$builddir" bench >/dev/null ||
    { echo "run.sh: build failed (make -C $builddir bench)"; exit 1; }

[ -n "$outdir" ] || outdir=$builddir/benchmarks/results
mkdir -p "$outdir" || exit 1
outdir=$(cd "$outdir" && pwd)
[ -n "$png" ] || png=$outdir/bw.png
mpiexec=${MPIEXEC:-mpiexec}
limit=${BENCH_TIMEOUT:-240}
all=$outdir/all.txt

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host: $(uname -n) $(uname -srm)"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) online CPUs," \
        "$(lscpu | sed -n 's/^Core(s) per socket: *//p' | head -1) cores per socket," \
        "$(lscpu | sed -n 's/^Thread(s) per core: *//p' | head -1) thread(s) per core"
    echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "MPI: $(mpichversion 2>/dev/null | tr -s ' \t' ' ' | head -3 | tr '\n' ';')"
    echo "shmpi: $(git -C "$srcdir" log -1 --format='%h %s' 2>/dev/null)"
    echo "load at start: $(cat /proc/loadavg)"
    echo "options: $extra"
} > "$outdir/machine.txt"
cat "$outdir/machine.txt" > "$all"

start=$(date +%s)
status=0
report=$outdir/report.md
{
    echo "## Machine and run"
    echo
    echo '```'
    cat "$outdir/machine.txt"
    echo '```'
    echo
    echo "Command: \`${MPIEXEC:+MPIEXEC=\"$MPIEXEC\" }benchmarks/run.sh $orig_args\` (build dir $builddir); each program run was:"
    echo
} > "$report"
verdicts=$outdir/verdicts.txt
: > "$verdicts"
tables=$outdir/tables.md
: > "$tables"

# mode_setup MODE NP: the mode's environment (envset), programs (progs) and launcher.
mode_setup() {
    mode=$1 np=$2
    launch="$mpiexec -n $np"
    case $mode in
    default) envset= progs="rma amo coll" ;;
    mpi_only) envset="SHMPI_MPI_ONLY=1" progs="rma amo coll" ;;
    mpi_only_amo_add) envset="SHMPI_MPI_ONLY=1 SHMPI_AMO_OPS=add" progs=amo ;;
    nodes | nodes_no_thread)
        envset=
        [ $mode = nodes_no_thread ] && envset="SHMPI_PROGRESS_THREAD=0"
        progs="nodes rma amo coll"
        launch="sh $srcdir/tests/launch-nodes.sh -l 2=2x1,4=2x2 $np" ;;
    *) echo "run.sh: unknown mode $mode"; exit 2 ;;
    esac
}

# run_one PROG: one run of bench_PROG in the mode set up, job $job.
run_one() {
    prog=$1
    out=$outdir/bench_$prog-np$np-$mode.txt
    [ "$jobs" -gt 1 ] && out=$outdir/bench_$prog-np$np-$mode.job$job.txt
    dat=
    [ $prog = rma ] && dat="-d $outdir/rma-np$np-$mode"
    cmd="${envset:+env $envset }timeout -k 10 $limit $launch $builddir/benchmarks/bench_$prog $dat $extra"
    echo "run.sh: $cmd"
    t0=$(date +%s)
    # Runnable tasks once a second while it runs: more than this job's
    # PEs means other processes competed for the CPUs.
    samples=$outdir/.runnable
    # (shell builtins only, so that the sampler counts itself once: the
    # baseline is this job's PEs + 1)
    (while :; do read -r _ _ _ r _ < /proc/loadavg; echo "${r%/*}"; sleep 1; done) \
        > "$samples" &
    sampler=$!
    # shellcheck disable=SC2086
    env $envset timeout -k 10 "$limit" $launch \
        "$builddir/benchmarks/bench_$prog" $dat $extra > "$out" 2>&1
    rc=$?
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    t1=$(date +%s)
    busy=$(awk -v np="$np" '{n++; s+=$1; if ($1>m) m=$1; if ($1>np+1) o++}
        END {if (n) printf "runnable tasks mean %.1f, max %d, %d of %d samples above %d (this job %d PEs + sampler)", s/n, m, o, n, np+1, np; else printf "no samples"}' "$samples")
    rm -f "$samples"
    echo "# runnable: $busy" >> "$out"
    if [ $rc -ne 0 ]; then
        echo "run.sh: bench_$prog on $np PEs ($mode) FAILED with status $rc" | tee -a "$out"
        status=1
    fi
    {
        echo
        echo "################################################################"
        echo "# \$ $cmd   ($((t1 - t0)) s, load after: $(cut -d' ' -f1-3 /proc/loadavg); $busy)"
        echo "################################################################"
        cat "$out"
    } >> "$all"
    grep -E 'PASS|MISS' "$out" | sed "s/^/   np$np $mode: /"
    [ "$job" -eq 1 ] && echo "    $cmd" >> "$report"
    [ "$job" -eq 1 ] && {
        echo "### bench_$prog, $np PEs, $mode ($((t1 - t0)) s; $busy)"
        echo
        echo '```'
        cat "$out"
        echo '```'
        echo
    } >> "$tables"
}

# The jobs alternate: every mode and program once, then all again, so that
# the machine's drift hits every mode alike.
job=1
while [ "$job" -le "$jobs" ]; do
    for np in $nps; do
        for mode in $modes; do
            mode_setup "$mode" "$np"
            for prog in $progs; do
                case " ${only:-$progs} " in *" $prog "*) ;; *) continue ;; esac
                run_one "$prog"
            done
        done
    done
    job=$((job + 1))
done

for np in $nps; do
    for mode in $modes; do
        mode_setup "$mode" "$np"
        for prog in $progs; do
            case " ${only:-$progs} " in *" $prog "*) ;; *) continue ;; esac
          # The verdict lines of every job, combined (they come in the same
          # order): the median of each target's value over the jobs, and
          # PASS when more than half of the jobs passed by the program's own
          # verdict, at full precision (for an odd count, exactly "the
          # median meets the target"; for an even one, stricter).
          if [ "$jobs" -gt 1 ]; then
              set -- "$outdir/bench_$prog-np$np-$mode".job*.txt
          else
              set -- "$outdir/bench_$prog-np$np-$mode.txt"
          fi
          for f in "$@"; do grep -E 'PASS|MISS|n/a' "$f" | sed 's/^# *//; s/  */ /g'; done |
              awk -v jobs="$jobs" -v pre="| np$np | $mode | " '
              { line[NR] = $0 }
              END {
                  per = NR / jobs
                  for (i = 1; i <= per; i++) {
                      if (line[i] !~ /\(target <= [^)]*\) (PASS|MISS)$/) { print pre line[i]; continue }
                      n = 0; passes = 0; all = ""
                      what = substr(line[i], 1, index(line[i], " (target") - 1)
                      sub(/ [0-9.]+[a-z]*$/, "", what)
                      # A "worst size (32K B)" row names the size it found, which
                      # may differ from job to job: the row is the same target,
                      # and the size of each job goes beside its value.
                      key = what; sized = sub(/ \([0-9.]+[KMG]? B\)$/, "", key)
                      if (jobs > 1 && sized) what = key
                      for (j = 0; j < jobs; j++) {
                          l = line[i + j * per]
                          match(l, / [0-9.]+[a-z]* \(target/); v = substr(l, RSTART + 1, RLENGTH - 9)
                          vals[n++] = v + 0; unit = v; sub(/^[0-9.]+/, "", unit)
                          size = ""
                          if (sized && match(l, /\([0-9.]+[KMG]? B\) /)) size = "@" substr(l, RSTART + 1, RLENGTH - 5)
                          all = all (j ? " " : "") v size
                          passes += l ~ / PASS$/
                          if (index(l, key) != 1) passes = -jobs  # the jobs disagree: MISS
                      }
                      for (a = 0; a < n; a++) for (b = a + 1; b < n; b++)
                          if (vals[b] < vals[a]) { t = vals[a]; vals[a] = vals[b]; vals[b] = t }
                      med = n % 2 ? vals[(n - 1) / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2
                      match(line[i], /\(target <= [^)]*\)/); lim = substr(line[i], RSTART + 11, RLENGTH - 12)
                      shown = sprintf("%.3f%s", med, unit)
                      if (jobs > 1) shown = shown " (jobs: " all ")"
                      print pre what " | " shown " | <= " lim " | " (2 * passes > n ? "PASS" : "MISS") " |"
                  }
              }' >> "$verdicts"
        done
    done
done
echo "run.sh: benchmarks took $(( $(date +%s) - start )) s; load now: $(cat /proc/loadavg)" |
    tee -a "$all"
{
    echo
    echo "Total $(( $(date +%s) - start )) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "## Target verdicts"
    echo
    echo "| PEs | mode | target | measured | target | verdict |"
    echo "|---|---|---|---|---|---|"
    cat "$verdicts"
    echo
    echo "## Tables"
    echo
    cat "$tables"
} >> "$report"
rm -f "$verdicts" "$tables"

# What the progress thread costs: for every row of a program run in both
# "nodes" and "nodes_no_thread", shmpi's median time (the median over the
# jobs) with the thread over its time without (rates: per operation).  The
# AMO rows of bench_amo and bench_nodes change their mechanism too (messages
# with the thread, compare-and-swaps without).
for np in $nps; do
    for prog in nodes rma amo coll; do
        set -- "$outdir/bench_$prog-np$np-nodes".*txt
        [ -f "$1" ] || continue
        with="$*"
        set -- "$outdir/bench_$prog-np$np-nodes_no_thread".*txt
        [ -f "$1" ] || continue
        # shellcheck disable=SC2086
        awk -v prog="bench_$prog" -v np="$np" '
            function median(list,   n, a, i, j, t) {
                n = split(list, a, " ")
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                    if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
                return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
            }
            FNR == 1 { mode = FILENAME ~ /nodes_no_thread/ ? "off" : "on" }
            /^## / { title = substr($0, 4); sub(/:.*/, "", title); next }
            /^#/ || !title { next }
            $1 ~ /^[0-9]+$/ && $2 == "|" {
                split($0, part, "|"); n = split(part[2], w, " ")
                if (n < 2 || w[2] == "-") next
                key = title " | " $1
                if (!(key in seen)) { seen[key] = 1; order[++count] = key }
                val[mode, key] = val[mode, key] " " w[2]
            }
            END {
                if (!count) exit
                print ""
                print "### The progress thread'"'"'s cost, " prog ", " np " PEs between nodes"
                print ""
                print "| row | bytes | shmpi med_us, thread (nodes) | without (nodes_no_thread) | with / without |"
                print "|---|---|---|---|---|"
                for (i = 1; i <= count; i++) {
                    key = order[i]
                    if (!(("on", key) in val) || !(("off", key) in val)) continue
                    a = median(val["on", key]); b = median(val["off", key])
                    printf "| %s | %.3f | %.3f | %s |\n", key, a, b, (b > 0 ? sprintf("%.2f", a / b) : "-")
                }
            }' $with "$@"
    done
done >> "$report"

if command -v gnuplot >/dev/null 2>&1 && [ -f "$outdir/rma-np2-default_put.dat" ]; then
    gnuplot -e "datadir='$outdir'; out='$png'" "$here/plot_bw.gp" &&
        echo "run.sh: plot $png"
else
    echo "run.sh: no gnuplot or no 2-PE default-mode data: plot skipped"
fi
echo "run.sh: tables in $outdir (all.txt has everything)"
exit $status
