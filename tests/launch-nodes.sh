#!/bin/sh
# launch-nodes.sh - run one MPICH (Hydra) job on emulated nodes of this machine.
#
#   launch-nodes.sh [-l LAYOUT] NP PROGRAM [ARGS...]   NP PEs, placed as LAYOUT says
#   launch-nodes.sh NODESxPPN PROGRAM [ARGS...]        NODES nodes of PPN PEs each
#   launch-nodes.sh --check                            exit 0 if this machine can, else why
#
# LAYOUT maps a PE count to nodes x PEs per node, e.g. 2=2x1,4=2x2,8=4x2 (the default);
# a PE count it does not name is skipped (exit 77), so the launcher can stand in for
# mpiexec under tests/run-spmd.sh (SHMPI_TEST_LAUNCHER, `make check-2nodes`,
# `make check-4nodes`).  Ranks are placed in blocks: PEs 0..PPN-1 on the first node.
# At most MAX_NODES (8) nodes.
#
# A node is a set of Linux namespaces: network (its own interface, NODE_IF, with
# address 10.199.0.I+1), UTS (hostname nodeI), IPC, PID and mount (its own /dev/shm
# and /proc), so MPI sees separate nodes and UCX reaches another node only over TCP.
# The nodes' interfaces are joined by a bridge in a head namespace, where mpiexec
# runs; Hydra starts its proxy on a node through "-launcher ssh" with a generated
# fake ssh that enters the node's namespaces.  UCX_NET_DEVICES is set to NODE_IF:
# otherwise UCX also advertises 127.0.0.1 (every namespace has lo) and jobs hang in
# MPI_Finalize.  The PEs see SHMPI_TEST_NODES and SHMPI_TEST_PPN (tests/spmd/multinode.c
# checks its placement with them).
#
# Jobs run one at a time (a lock).  The namespaces of a job are named shmpi-PID-...
# after the launcher's process; they and every process left in them are removed when
# the job ends, also after a timeout's TERM or KILL: a watcher in its own session
# waits for the launcher to go away, then removes what is left (holding the lock
# until it is done).
#
# Needs root, iproute2 (ip), util-linux (unshare, flock, setsid) and MPICH's Hydra
# mpiexec (MPIEXEC; unset, the first Hydra among mpiexec, mpiexec.hydra and
# mpiexec.mpich, as installing Open MPI makes plain mpiexec Open MPI's on Debian); Open
# MPI's mpirun is not supported (--check says so and tests are skipped).  Environment: SHMPI_NODES_LOCK (lock file, default
# /tmp/shmpi-nodes.lock), SHMPI_NODES_LOCK_WAIT (seconds to wait for it, default 600).
set -u
self=$0
layout=2=2x1,4=2x2,8=4x2
lock=${SHMPI_NODES_LOCK:-/tmp/shmpi-nodes.lock}
lock_wait=${SHMPI_NODES_LOCK_WAIT:-600}
is_hydra() { "$1" --version 2>/dev/null | grep -q HYDRA; }
mpiexec=${MPIEXEC:-}
if [ -z "$mpiexec" ]; then
    for candidate in mpiexec mpiexec.hydra mpiexec.mpich; do
        if is_hydra $candidate; then mpiexec=$candidate; break; fi
    done
    mpiexec=${mpiexec:-mpiexec}
fi
MAX_NODES=8
NODE_IF=nodeeth
SUBNET=10.199.0
HEAD_ADDR=$SUBNET.254

# Kill every process in the namespaces of job TAG, delete them, remove DIR.
teardown() {
    tag=$1 dir=$2
    spaces=$(ip netns list 2>/dev/null | awk -v p="$tag-" 'index($1, p) == 1 { print $1 }')
    for ns in $spaces; do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        # shellcheck disable=SC2086
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    done
    for ns in $spaces; do
        ip netns del "$ns" 2>/dev/null
    done
    [ -n "$dir" ] && rm -rf "$dir"
    return 0
}

cannot() {
    if [ "$(id -u)" != 0 ]; then echo "needs root (network namespaces)"; return 0; fi
    for tool in ip unshare flock setsid mkfifo; do
        command -v $tool >/dev/null 2>&1 || { echo "needs $tool (iproute2, util-linux)"; return 0; }
    done
    is_hydra "$mpiexec" ||
        { echo "needs MPICH's Hydra mpiexec ($mpiexec is not; set MPIEXEC)"; return 0; }
    return 1
}

case ${1:-} in
--check)
    if why=$(cannot); then echo "launch-nodes: cannot run on emulated nodes: $why" >&2; exit 1; fi
    exit 0 ;;
--watch)
    # The watcher (started below): wait until the launcher closes the pipe, then clean up.
    cat >/dev/null
    teardown "$2" "$3"
    exit 0 ;;
-l | --layout)
    [ $# -ge 2 ] || { echo "launch-nodes: $1 needs a value" >&2; exit 2; }
    layout=$2; shift 2 ;;
esac
if [ $# -lt 2 ]; then
    echo "usage: $self [-l NP=NODESxPPN,...] NP PROGRAM [ARGS...] | NODESxPPN PROGRAM [ARGS...] | --check" >&2
    exit 2
fi
np=$1; shift
case $np in
*x*) shape=$np ;;
*)
    shape=
    for entry in $(echo "$layout" | tr ',' ' '); do
        [ "${entry%%=*}" = "$np" ] && shape=${entry#*=}
    done
    [ -n "$shape" ] || { echo "skipped: $np PEs (the node layout $layout does not name it)"; exit 77; } ;;
esac
nodes=${shape%x*}
ppn=${shape#*x}
case $nodes$ppn in
*[!0-9]* | '') echo "launch-nodes: bad layout '$shape': expected NODESxPPN, e.g. 4x2" >&2; exit 2 ;;
esac
if [ "$nodes" -lt 1 ] || [ "$nodes" -gt $MAX_NODES ] || [ "$ppn" -lt 1 ]; then
    echo "launch-nodes: '$shape': 1 to $MAX_NODES nodes of at least 1 PE each" >&2; exit 2
fi
case $np in
*x*) np=$((nodes * ppn)) ;;
*) [ "$np" -eq $((nodes * ppn)) ] ||
    { echo "launch-nodes: $np PEs do not fill $nodes nodes of $ppn (layout $layout)" >&2; exit 2; } ;;
esac
if why=$(cannot); then echo "skipped: $why"; exit 77; fi

# The lock (fd 9) is held by this process and by the watcher, which inherits it.
exec 9>>"$lock"
flock -w "$lock_wait" 9 || { echo "launch-nodes: $lock still held after ${lock_wait}s" >&2; exit 1; }
tag=shmpi-$$
dir=$(mktemp -d /tmp/shmpi-nodes.XXXXXX) || exit 1
mkfifo "$dir/alive" || exit 1
# The watcher reads the pipe until every writer is gone: only this process holds the
# writing end (fd 8); the job's processes get neither fd 8 nor the lock.
setsid sh "$self" --watch "$tag" "$dir" <"$dir/alive" >/dev/null 2>&1 &
exec 8>"$dir/alive"

head_ns=$tag-h
setup() {
    ip netns add "$head_ns" &&
        ip -n "$head_ns" link set lo up &&
        ip -n "$head_ns" link add name nodebr type bridge &&
        ip -n "$head_ns" addr add "$HEAD_ADDR/24" dev nodebr &&
        ip -n "$head_ns" link set nodebr up || return 1
    i=0
    while [ $i -lt "$nodes" ]; do
        ns=$tag-$i
        # Both veth ends are created inside their namespaces: no name appears outside.
        ip netns add "$ns" &&
            ip -n "$ns" link set lo up &&
            ip link add name $NODE_IF netns "$ns" type veth peer name "port$i" netns "$head_ns" &&
            ip -n "$head_ns" link set "port$i" master nodebr &&
            ip -n "$head_ns" link set "port$i" up &&
            ip -n "$ns" addr add "$SUBNET.$((i + 1))/24" dev $NODE_IF &&
            ip -n "$ns" link set $NODE_IF up || return 1
        i=$((i + 1))
    done
}
if ! setup; then
    echo "launch-nodes: could not create the namespaces of $nodes nodes" >&2
    teardown "$tag" "$dir"
    exit 1
fi

# Hydra runs: FAKESSH -x HOST COMMAND...  (HOST is a node's address).
cat >"$dir/fakessh" <<EOF
#!/bin/sh
[ "\$1" = -x ] && shift
host=\$1; shift
case \$host in
$SUBNET.[1-9]*) i=\$((\${host##*.} - 1)) ;;
*) echo "launch-nodes: fake ssh: unknown host \$host" >&2; exit 255 ;;
esac
[ \$i -lt $nodes ] || { echo "launch-nodes: fake ssh: no node for \$host" >&2; exit 255; }
# A PID namespace of its own (the proxy is its first process, so all of the node's
# processes end with it) and a private /dev/shm, /proc, hostname and System V IPC.
exec ip netns exec $tag-\$i unshare --uts --ipc --pid --fork --kill-child --mount \\
    --propagation private --mount-proc \\
    /bin/sh -c "hostname node\$i && mount -t tmpfs -o mode=1777 shmpi-node\$i /dev/shm && exec \$*"
EOF
chmod +x "$dir/fakessh"

hosts=
i=0
while [ $i -lt "$nodes" ]; do
    hosts=$hosts${hosts:+,}$SUBNET.$((i + 1))
    i=$((i + 1))
done
export UCX_NET_DEVICES=$NODE_IF SHMPI_TEST_NODES="$nodes" SHMPI_TEST_PPN="$ppn"
ip netns exec "$head_ns" "$mpiexec" -launcher ssh -launcher-exec "$dir/fakessh" \
    -localhost $HEAD_ADDR -hosts "$hosts" -n "$np" -ppn "$ppn" "$@" </dev/null 8>&- 9>&- &
job=$!
trap 'kill -TERM $job 2>/dev/null' INT TERM
while :; do
    wait $job
    status=$?
    kill -0 $job 2>/dev/null || break # a trapped signal interrupted wait: wait again
done
teardown "$tag" "$dir"
exit "$status"
