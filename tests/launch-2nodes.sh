#!/bin/sh
# launch-2nodes.sh NP PROGRAM [ARGS...]
#
# Test launcher for two emulated nodes (SHMPI_TEST_LAUNCHER of tests/run-spmd.sh, used by
# `make check-2nodes`): runs PROGRAM on NP PEs split over two nodes with
# ../shared/multinode/run2nodes.sh (network, IPC, PID and mount namespaces joined by a
# veth bridge; UCX uses TCP between them).  NP 2 gives one PE per node, NP 4 two per
# node; any other NP is skipped (exit 77).  Jobs run one at a time (the namespace names
# are fixed): a lock serializes them.  The namespaces are removed after every job, also
# after a timeout.
#
#   launch-2nodes.sh --check     exit 0 if this machine can run the mode, else say why
#
# Environment: SHMPI_RUN2NODES (path of run2nodes.sh; default: the shared/ directory
# beside the source tree), SHMPI_2NODES_LOCK (lock file, default /tmp/shmpi-2nodes.lock).
# The PEs see SHMPI_TEST_TWO_NODES=1 (tests that check node placement use it).
here=$(cd "$(dirname "$0")" && pwd)
run2nodes=${SHMPI_RUN2NODES:-$here/../../shared/multinode/run2nodes.sh}
lock=${SHMPI_2NODES_LOCK:-/tmp/shmpi-2nodes.lock}

cannot() {
    if [ "$(id -u)" != 0 ]; then echo "needs root (network namespaces)"; return 0; fi
    for tool in ip unshare flock mpiexec; do
        command -v $tool >/dev/null 2>&1 || { echo "needs $tool"; return 0; }
    done
    [ -f "$run2nodes" ] || { echo "no $run2nodes (set SHMPI_RUN2NODES)"; return 0; }
    return 1
}

if [ "$1" = --check ]; then
    if why=$(cannot); then echo "launch-2nodes: cannot run on two emulated nodes: $why" >&2; exit 1; fi
    exit 0
fi
if [ $# -lt 2 ]; then echo "usage: $0 NP PROGRAM [ARGS...] | --check" >&2; exit 2; fi
np=$1; shift
case $np in
2) ppn=1 ;;
4) ppn=2 ;;
*) echo "skipped: $np PEs (two-node mode runs 2 or 4 PEs: 1 or 2 per node)"; exit 77 ;;
esac
if why=$(cannot); then echo "skipped: $why"; exit 77; fi

export SHMPI_TEST_TWO_NODES=1
# The job is the lock holder's child: a timeout's TERM reaches run2nodes.sh, which
# stops mpiexec and removes the namespaces on exit.
flock -w 600 "$lock" bash "$run2nodes" "$ppn" "$@" </dev/null
status=$?
# After a KILL (timeout -k) run2nodes.sh cannot clean up: remove what is left.
if ip netns list 2>/dev/null | grep -qE '^mn(h|0|1)( |$)'; then
    flock -n "$lock" sh -c 'for n in mn0 mn1 mnh; do ip netns del $n 2>/dev/null; done' || true
fi
exit $status
