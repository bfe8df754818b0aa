# A Slurm cluster over the three hosts of tests/hosts/lib.sh, for tests
# only: slurmctld on h1, one slurmd on each of h1..h3 (node names cbtest-h1..3,
# the hosts' UTS names; node addresses on the launcher's network,
# 10.77.2.11-13), one munged in the hub's network namespace (its unix socket
# is a file, seen from every namespace as the mount namespace is shared).
# Every file (slurm.conf, munge key and socket, state, spool, logs, pid
# files, the jobs' TmpFS) lives under DIR/slurm; nothing goes to /etc, /run,
# /var or the root network namespace. No cgroups, no accounting, all as
# root.
#
# Usage, after lib.sh is sourced and hosts_up DIR has run:
#   slurm_up DIR        (exports SLURM_CONF)
#   on h1 srun -N3 --ntasks-per-node=1 hostname
#   on h1 srun -N3 --ntasks-per-node=1 --mpi=pmix ./mpi_program
#   slurm_down          (from the EXIT trap, before hosts_down)
# Open MPI (Debian's 4.1) starts under srun with --mpi=pmix only: it is
# built against PMIx without Slurm's PMI-1/PMI-2, so --mpi=pmi2 or none ends
# in MPI_Init ("OMPI was not built with SLURM's PMI support"). srun passes
# the caller's environment on: OMPI_MCA_btl_tcp_if_include=10.77.2.0/24 keeps
# Open MPI's TCP traffic on the launcher's network, as hosts_mpirun does.
# Each node's TmpFS is a directory of its own (DIR/slurm/tmp/<node>): the
# slurmstepd of every host makes its PMIx directory there under the same
# name, which on one shared /tmp would clash ("Cannot create directory
# .../spmix_appdir_0_N.0: File exists").
#
# Needs: Debian's slurmctld, slurmd, slurm-client and munge packages (the
# munge package's postinst makes /etc/munge/munge.key; it is not used).

# slurm_up DIR: start munged, slurmctld and the three slurmds; return once
# the three nodes are idle (or fail after SLURM_UP_TIMEOUT seconds, default
# 30, leaving what started for slurm_down).
slurm_up() {
	SLURM_DIR=$1/slurm
	local d=$SLURM_DIR i n
	mkdir -p "$d/munge" "$d/state" "$d/log"
	for i in 1 2 3; do
		mkdir -p "$d/spool/cbtest-h$i" "$d/tmp/cbtest-h$i"
	done
	chmod 700 "$d/munge"
	mungekey --create --keyfile="$d/munge/munge.key" >/dev/null
	# --force: the socket's directory is not reachable by other users (a
	# mktemp -d directory); everyone here is root.
	on hub munged --force --key-file="$d/munge/munge.key" \
		--socket="$d/munge/munge.sock" --pid-file="$d/munge/munged.pid" \
		--log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed"
	cat >"$d/slurm.conf" <<EOF
ClusterName=cbtest
SlurmctldHost=cbtest-h1(10.77.2.11)
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
TmpFS=$d/tmp/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.%n.log
PlugStackConfig=$d/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=5
NodeName=cbtest-h[1-3] NodeAddr=10.77.2.1[1-3] CPUs=1 State=UNKNOWN
PartitionName=cbtest Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	: >"$d/plugstack.conf"
	export SLURM_CONF=$d/slurm.conf
	on h1 slurmctld -i
	for i in 1 2 3; do
		on "h$i" slurmd
	done
	for ((n = 0; n < ${SLURM_UP_TIMEOUT:-30} * 10; n++)); do
		if [ "$(on h1 sinfo -h -o '%T %D' 2>/dev/null)" = "idle 3" ]; then
			return 0
		fi
		sleep 0.1
	done
	echo "slurm_up: the nodes are not idle after ${SLURM_UP_TIMEOUT:-30} s:" >&2
	on h1 sinfo >&2 || true
	return 1
}

# Everything slurm_up started, whatever state it is in: the jobs left
# cancelled (up to 5 s for them to end), the daemons sent TERM, then KILL
# after 5 s. hosts_down kills whatever is still left in the namespaces, as
# every daemon and task runs in one of them. The files stay under DIR/slurm
# for the caller to remove.
slurm_down() {
	[ -n "${SLURM_DIR:-}" ] || return 0
	local f pid left n
	local -a pids=()
	# jobs still running: their steps ended by their slurmstepds
	if [ -s "$SLURM_DIR/slurmctld.pid" ] && kill -0 "$(cat "$SLURM_DIR/slurmctld.pid")" 2>/dev/null &&
		on h1 timeout 2 scancel --user=root >/dev/null 2>&1; then
		n=$((SECONDS + 5))
		while ((SECONDS < n)); do
			[ -z "$(on h1 timeout 2 squeue -h -o %i 2>/dev/null | head -1)" ] && break
			sleep 0.1
		done
	fi
	for f in "$SLURM_DIR"/slurmd.*.pid "$SLURM_DIR/slurmctld.pid" \
		"$SLURM_DIR/munge/munged.pid"; do
		[ -s "$f" ] || continue
		pid=$(cat "$f")
		kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
	done
	for ((n = 0; n < 50; n++)); do
		left=0
		for pid in "${pids[@]}"; do
			kill -0 "$pid" 2>/dev/null && left=1
		done
		[ "$left" = 0 ] && break
		sleep 0.1
	done
	for pid in "${pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
	SLURM_DIR=
}
