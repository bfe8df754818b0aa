# Three client hosts on this machine, for tests only: three network
# namespaces h1..h3, each with a UTS namespace of its own (host names
# cbtest-h1..3), joined by veth pairs to two bridges in a hub namespace:
#   the public network 10.77.1.0/24 (st0 on each host; the hub's bridge
#     brs holds 10.77.1.1, where the sandbox cluster binds), and
#   the launcher's network 10.77.2.0/24 (mg0 on each host; Open MPI's
#     control and data traffic).
# Two networks so that a host's cluster link can be cut while its rank still
# tells rank 0 what that did to it, as with a storage network apart from
# the management one. Every address lives in namespaces made here; nothing
# is added to the host's own network, /etc or the root namespace's names.
# hosts_down removes it all, also for a test that failed (call it from the
# EXIT trap).
#
# Needs: root, iproute2, util-linux (unshare, nsenter).

HOSTS_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HOSTS_MADE=()
HOSTS_UTS=()
# hI's network namespace and its hub's ends, by I (host_make)
HOST_NS=()
HOST_S=()
HOST_M=()

# hosts_up DIR: make the namespaces, their files under DIR (which must
# exist): DIR/hostfile (Open MPI's, one slot a host), DIR/hosts (the rsh
# agent's map). Exports CB_HOSTS_DIR for the agent. The namespaces' names
# begin with $CB_HOSTS_NS_PREFIX (default cbh), then this shell's pid.
hosts_up() {
	HOSTS_DIR=$1
	HOSTS_NS=${CB_HOSTS_NS_PREFIX:-cbh}$$
	HOSTS_MADE=()
	export CB_HOSTS_DIR=$HOSTS_DIR
	hosts_netns hub
	ip -n "$HOSTS_NS-hub" link set lo up
	ip -n "$HOSTS_NS-hub" link add brs type bridge
	ip -n "$HOSTS_NS-hub" link add brm type bridge
	ip -n "$HOSTS_NS-hub" addr add 10.77.1.1/24 dev brs
	ip -n "$HOSTS_NS-hub" link set brs up
	ip -n "$HOSTS_NS-hub" link set brm up
	: >"$HOSTS_DIR/hostfile"
	local i
	for i in 1 2 3; do
		host_make "$i" ""
		echo "10.77.2.1$i slots=1" >>"$HOSTS_DIR/hostfile"
	done
}

# host_make I GEN: host hI's namespaces and its two links to the hub, the
# network namespace and the hub's ends named with GEN (h3s, h3m; made
# anew: h3s2, h3m2); the rsh agent's map (DIR/hosts) follows.
host_make() {
	local i=$1 ns=$HOSTS_NS-h$1$2
	hosts_netns "h$i$2"
	HOST_NS[i]=$ns
	HOST_S[i]=h${i}s$2
	HOST_M[i]=h${i}m$2
	ip -n "$ns" link set lo up
	ip link add st0 netns "$ns" type veth peer name "${HOST_S[i]}" netns "$HOSTS_NS-hub"
	ip link add mg0 netns "$ns" type veth peer name "${HOST_M[i]}" netns "$HOSTS_NS-hub"
	ip -n "$HOSTS_NS-hub" link set "${HOST_S[i]}" master brs up
	ip -n "$HOSTS_NS-hub" link set "${HOST_M[i]}" master brm up
	ip -n "$ns" addr add "10.77.1.1$i/24" dev st0
	ip -n "$ns" addr add "10.77.2.1$i/24" dev mg0
	ip -n "$ns" link set st0 up
	ip -n "$ns" link set mg0 up
	if [ ! -e "$HOSTS_DIR/h$i.uts" ]; then
		# a persistent UTS namespace: a bind mount of it on this file
		touch "$HOSTS_DIR/h$i.uts"
		unshare --uts="$HOSTS_DIR/h$i.uts" hostname "cbtest-h$i"
		HOSTS_UTS+=("$HOSTS_DIR/h$i.uts")
	fi
	local k
	: >"$HOSTS_DIR/hosts"
	for k in "${!HOST_NS[@]}"; do
		echo "10.77.2.1$k ${HOST_NS[k]} $HOSTS_DIR/h$k.uts" >>"$HOSTS_DIR/hosts"
	done
}

# host_cut I: host hI cut off altogether (both its links down at the hub).
host_cut() {
	ip -n "$HOSTS_NS-hub" link set "${HOST_S[$1]}" down
	ip -n "$HOSTS_NS-hub" link set "${HOST_M[$1]}" down
}

# host_renew I GEN: host hI made anew after a cut, under new names (GEN),
# its processes killed. The cut one stays, links down, until hosts_down:
# the sockets its killed processes left still hold what they had to send,
# and with it the namespace (the kernel retries for minutes); brought up,
# they would send it to the cluster.
host_renew() {
	host_pids "h$1" | xargs -r kill -KILL 2>/dev/null || true
	host_make "$1" "$2"
}

# A network namespace NAME ($HOSTS_NS-NAME), remembered for hosts_down only
# once made: a namesake left by another test is never removed.
hosts_netns() { # NAME
	ip netns add "$HOSTS_NS-$1"
	HOSTS_MADE+=("$1")
}

# on HOST COMMAND...: COMMAND in host HOST's namespaces (h1..h3), or in the
# hub's network (hub), where the cluster runs.
on() {
	local h=$1
	shift
	if [ "$h" = hub ]; then
		nsenter --net="/run/netns/$HOSTS_NS-hub" -- "$@"
	else
		nsenter --net="/run/netns/${HOST_NS[${h#h}]}" --uts="$HOSTS_DIR/$h.uts" -- "$@"
	fi
}

# The pids of the processes in HOST's network namespace (hI, or a name
# hosts_netns made).
host_pids() {
	local ns=$HOSTS_NS-$1
	[[ $1 != h[0-9] ]] || ns=${HOST_NS[${1#h}]}
	ip netns pids "$ns" 2>/dev/null || true
}

# hosts_mpirun NP ARGS...: mpirun on h1 over the three hosts (one rank a
# host, in the hostfile's order: rank k on h(k+1)), Open MPI's traffic on the
# launcher's network only; ended after HOSTS_MPIRUN_TIMEOUT seconds (default
# 300: exit 124; KILL 10 s later, as an mpirun that lost a host may not end
# on TERM). TCP keepalive on the launcher's connections (idle
# HOSTS_KEEPALIVE seconds, default 2, then 3 probes a second apart; Open
# MPI's default is 300 s, 9 probes 20 s apart): a host cut off altogether
# is noticed by the launcher in about 5 s, not 8 minutes. A test of
# cephbench's own watch of the ranks sets it past that watch's bound.
hosts_mpirun() {
	local np=$1
	shift
	on h1 timeout -k 10 "${HOSTS_MPIRUN_TIMEOUT:-300}" mpirun --allow-run-as-root \
		--hostfile "$HOSTS_DIR/hostfile" -np "$np" --map-by node \
		--mca plm_rsh_agent "$HOSTS_LIB/rsh-agent" \
		--mca oob_tcp_if_include 10.77.2.0/24 --mca btl_tcp_if_include 10.77.2.0/24 \
		--mca btl self,tcp --mca oob_tcp_keepalive_time "${HOSTS_KEEPALIVE:-2}" --mca oob_tcp_keepalive_intvl 1 \
		--mca oob_tcp_keepalive_probes 3 "$@"
}

# Everything hosts_up made, whatever state it is in: the processes left in
# its namespaces killed, the namespaces and their UTS files gone.
hosts_down() {
	local ns f
	for ns in "${HOSTS_MADE[@]}"; do
		ip netns pids "$HOSTS_NS-$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
	done
	for ns in "${HOSTS_MADE[@]}"; do
		ip netns del "$HOSTS_NS-$ns" 2>/dev/null || true
	done
	for f in "${HOSTS_UTS[@]}"; do
		umount "$f" 2>/dev/null || true
		rm -f "$f"
	done
	HOSTS_MADE=()
	HOSTS_UTS=()
	HOST_NS=()
}

# The start every test over these hosts shares: skipped (77) without MPI
# or root; T a scratch directory (/tmp/cephbench-NAME.*), the hosts up, and
# a sandbox cluster of their own bound to the hub (CONF); on exit the
# sandbox stopped, Slurm too when tests/hosts/slurm_lib.sh was sourced, the
# hosts removed. Leak checking is off under mpirun (see mpi.sh).
hosts_test_begin() {
	: "${CEPHBENCH:?CEPHBENCH must name the cephbench binary}"
	if [ "${CB_WITH_MPI:-OFF}" != ON ]; then
		echo "cephbench was built without MPI (WITH_MPI=OFF)" >&2
		exit 77
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "network namespaces need root" >&2
		exit 77
	fi
	export ASAN_OPTIONS=detect_leaks=0
	T=$(mktemp -d "/tmp/cephbench-$1.XXXXXX")
	trap hosts_test_end EXIT
	hosts_up "$T"
	SANDBOX_MEMSTORE_BYTES=1073741824 on hub "$HOSTS_LIB/../sandbox" start "$T/sb" --addr 10.77.1.1 >/dev/null
	CONF=$T/sb/ceph.conf
}

hosts_test_end() {
	"$HOSTS_LIB/../sandbox" stop "$T/sb" >/dev/null 2>&1 || true
	if declare -F slurm_down >/dev/null; then
		slurm_down
	fi
	hosts_down
	rm -rf "$T"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
