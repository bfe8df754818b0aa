#!/usr/bin/env bash
# User data planted in a sandbox before the cluster and fault tests, and
# checked after all of them: a benchmark never touches what it did not create.
#
#   tests/seed.sh plant CONF STATE   plant the data, write its checksums to STATE
#   tests/seed.sh check CONF STATE   the data is still there and byte-identical
#
# The data: objects in pools bench and rbd, in the default namespace and in a
# namespace "user", some named like cephbench's or rados bench's own objects,
# and in cephbench's own namespaces (cephbench, cephbench-creating: the
# names in tests/data/seed-names, some named exactly or almost like a run's,
# none with cephbench's mark), each with an xattr and omap; an RBD image
# with a snapshot, and one named like cephbench's; a pool of its own,
# seed-rbdns, whose RBD namespace "cephbench" holds an image (cephbench
# refuses a namespace RBD uses); two CephFS trees, and under /cephbench
# (cephbench's own directory, where only what carries a run's mark is a
# run's) hand-made entries no run made: directories (one with a malformed
# mark, one named like a run directory being made, holding files), a
# symlink and a file. Read with the ceph tools, python3-rados and the
# cephfs_tree helper (env CEPHFS_TREE), never with cephbench.
set -euo pipefail
usage="usage: seed.sh plant|check CONF STATE"
mode=${1:?$usage}
CONF=${2:?$usage}
STATE=${3:?$usage}
: "${CEPHFS_TREE:?CEPHFS_TREE must name the cephfs_tree helper}"

pools="bench rbd"
namespaces="- user" # - is the default namespace
objects="seed-user-data quick.c1.7 quick.meta benchmark_data_seedhost_1_object0 cephbench"
# NAMESPACE/NAME of the objects in cephbench's namespaces
ns_objects=$(awk '!/^#/ && NF == 2 { print $1 "/" $2 }' "$(dirname "$0")/data/seed-names")
image=seed-user-image
# An RBD namespace named like cephbench's, in a pool of its own: in pool rbd
# it would make every test's cleanup of that pool refuse its RADOS part.
rbdns_pool=seed-rbdns
rbdns_image=$rbdns_pool/cephbench/seed-vmdisk
lookalike=cephbench_user
dirs="/seed-user-data /cephbench-seed /cephbench/seed-handmade /cephbench/seed-badmark
/cephbench/.new.seed-run.0123456789abcdef"
# not directories: a symlink to the user's tree, and a file
link=/cephbench/seed-link
file=/cephbench/seed-file

rbd_() { timeout 120 rbd --conf "$CONF" "$@"; }
# a cluster left unwell by a failed test must fail the check, not hang it
ftree() { timeout 120 "$CEPHFS_TREE" "$@"; }

# The objects, through one librados connection: plant them, or print
# "SUM object POOL/NS/NAME" (or "gone ...") for each, the sum over content,
# xattr and omap.
objects_py() {
	timeout 300 /usr/bin/python3 - "$1" "$CONF" "$pools" "$namespaces" "$objects" "$ns_objects" <<'PY'
import hashlib, os, sys
import rados
mode, conf = sys.argv[1], sys.argv[2]
pools, nss, objs, ns_objs = (a.split() for a in sys.argv[3:7])
c = rados.Rados(conffile=conf)
c.conf_set("rados_osd_op_timeout", "60")
c.connect(timeout=60)
for p in pools:
    io = c.open_ioctx(p)
    items = [(ns, o) for ns in nss for o in objs] + [tuple(x.split("/", 1)) for x in ns_objs]
    for ns, o in items:
        io.set_namespace("" if ns == "-" else ns)
        name = "object %s/%s/%s" % (p, ns, o)
        if mode == "plant":
            data = os.urandom(1000 + int.from_bytes(os.urandom(2), "little"))
            if ns == "cephbench-creating" and o.endswith(".1"):
                # the content of a record (the run's name), but no mark
                data = o.split(".")[1].encode()
            io.write_full(o, data)
            io.set_xattr(o, "owner", b"user")
            with rados.WriteOpCtx() as w:
                io.set_omap(w, ("k",), (os.urandom(8),))
                io.operate_write_op(w, o)
            continue
        try:
            h = hashlib.sha256(io.read(o, 1 << 20))
            h.update(io.get_xattr(o, "owner"))
            with rados.ReadOpCtx() as r:
                it, _ = io.get_omap_vals(r, "", "", 100)
                io.operate_read_op(r, o)
                for k, v in it:
                    h.update(k.encode() + v)
            print(h.hexdigest(), name)
        except rados.ObjectNotFound:
            print("gone", name)
    io.close()
c.shutdown()
PY
}

# A sandbox kept from an earlier test run holds the last seed: replace it.
unplant() {
	local i d
	for i in "$image" "$lookalike"; do
		if rbd_ info "rbd/$i" >/dev/null 2>&1; then
			rbd_ snap purge --no-progress "rbd/$i"
			rbd_ rm --no-progress "rbd/$i"
		fi
	done
	if rbd_ info "$rbdns_image" >/dev/null 2>&1; then
		rbd_ rm --no-progress "$rbdns_image"
	fi
	for d in $dirs; do
		if ftree exists "$CONF" cephfs "$d"; then
			ftree rm "$CONF" cephfs "$d"
		fi
	done
	for d in "$link" "$file"; do
		if ftree exists "$CONF" cephfs "$d"; then
			ftree unlink "$CONF" cephfs "$d"
		fi
	done
}

plant() {
	local t d
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	unplant
	objects_py plant
	head -c 16M /dev/urandom >"$t/img"
	rbd_ import --no-progress "$t/img" "rbd/$image"
	rbd_ snap create --no-progress "rbd/$image@s1"
	head -c 4M /dev/urandom >"$t/img"
	rbd_ import --no-progress "$t/img" "rbd/$lookalike"
	if ! timeout 120 ceph --conf "$CONF" osd pool ls | grep -qx "$rbdns_pool"; then
		timeout 120 ceph --conf "$CONF" osd pool create "$rbdns_pool" 8 >/dev/null 2>&1
		rbd_ pool init "$rbdns_pool"
	fi
	rbd_ namespace ls "$rbdns_pool" | grep -qx cephbench || rbd_ namespace create "$rbdns_pool/cephbench"
	head -c 4M /dev/urandom >"$t/img"
	rbd_ import --no-progress "$t/img" "$rbdns_image"
	for d in $dirs; do
		ftree seed "$CONF" cephfs "$d"
	done
	# a mark that is no run id (and an owner mark): still not a run's
	ftree xattr "$CONF" cephfs /cephbench/seed-badmark user.cephbench.run_id notarunid
	ftree xattr "$CONF" cephfs /cephbench/seed-badmark user.cephbench.owner "x/y/z 1 1"
	ftree symlink "$CONF" cephfs "$link" /seed-user-data
	ftree file "$CONF" cephfs "$file"
}

# Print "SUM LABEL" for the output of a command, or "unreadable LABEL" when
# the command fails (the item is gone, or the cluster cannot serve it).
sum_of() {
	local label=$1 s
	shift
	if s=$("$@" 2>/dev/null | sha256sum); then
		echo "${s%% *} $label"
	else
		echo "unreadable $label"
	fi
}

# One line per item: a checksum of its content and metadata, and its name.
sums() {
	local i d
	objects_py sums
	for i in "$image" "$image@s1" "$lookalike"; do
		sum_of "image rbd/$i" rbd_ export --no-progress "rbd/$i" -
	done
	sum_of "image $rbdns_image" rbd_ export --no-progress "$rbdns_image" -
	for d in $dirs "$link" "$file"; do
		sum_of "dir $d" ftree sum "$CONF" cephfs "$d"
	done
}

case $mode in
plant)
	plant
	sums >"$STATE"
	if grep -E '^(gone|unreadable) ' "$STATE" >&2; then
		echo "FAIL: the items above were not planted" >&2
		exit 1
	fi
	echo "planted $(wc -l <"$STATE") items; checksums in $STATE"
	;;
check)
	[ -s "$STATE" ] || {
		echo "FAIL: no checksums in $STATE: was the seed planted?" >&2
		exit 1
	}
	sums >"$STATE.now"
	if ! diff "$STATE" "$STATE.now" >&2; then
		echo "FAIL: user data changed or gone (above: < planted, > now)" >&2
		exit 1
	fi
	echo "all $(wc -l <"$STATE") items unchanged"
	;;
*)
	echo "$usage" >&2
	exit 2
	;;
esac
