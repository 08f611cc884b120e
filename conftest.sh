#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: ./conftest.sh OUTPUT DEPFILE KERNELRELEASE CC CFLAGS...
#
# Which form of each kernel API that moved does the kernel lwnfs is being
# built for have?  Kbuild runs this before compiling lwnfs.c, with the
# very compiler and flags of the build: each probe below is a few lines of
# C compiled against the target's headers, and OUTPUT (conftest.h, read
# by lwnfs.h) defines LWNFS_HAVE_<PROBE> for each probe that compiles.
# Distribution kernels backport APIs, so the headers are asked, never the
# version number.  The one exception is the floor: a kernel older than
# 5.10 stops the build here with one line saying so.
#
# DEPFILE gets the headers the probes read, in gcc -MD's form, which
# kbuild's fixdep turns into prerequisites of OUTPUT (if_changed_dep in
# Kbuild): headers updated in place, as a distribution's point release
# updates them under the same KERNELRELEASE, have the probes run again.
#
# Where a probe does not compile, lwnfs.h supplies the API from its older
# form, which must compile then: when neither does, the kernel has a form
# lwnfs does not know, and the build stops here with one line naming the
# API, rather than with compiler errors in lwnfs.c.
#
# To follow an API that moves: add a probe that compiles only with its
# new form (comment: the release and the mainline commit) and after it an
# "older" check of the form lwnfs.h falls back on; use the new form in
# lwnfs.c, the old one in lwnfs.h under #ifndef LWNFS_HAVE_<PROBE>, and
# where a kernel series has it from a backport, a line in
# tests/data/conftest.expected.
set -euo pipefail

usage="usage: conftest.sh OUTPUT DEPFILE KERNELRELEASE CC CFLAGS..."
out=${1:?$usage} depfile=${2:?$usage} release=${3:?$usage} cc=${4:?$usage}
shift 4
# Warnings stay warnings (W=1 and CONFIG_WERROR must not fail a probe);
# a prototype or pointer that does not match is an error, as in lwnfs.c.
cflags=("$@" -Wno-error -Werror=incompatible-pointer-types
	-Werror=implicit-function-declaration -Werror=int-conversion)
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out.tmp"' EXIT

# compiles NAME: compile the C on stdin (checked, not turned into code);
# its log is $dir/NAME.log, the headers it read $dir/NAME.d (gcc writes
# them when the code has errors too).
compiles() {
	cat >"$dir/$1.c"
	"$cc" "${cflags[@]}" -fsyntax-only -MMD -MF "$dir/$1.d" "$dir/$1.c" \
		>"$dir/$1.log" 2>&1
}

# refused NAME: the compiler refused NAME's C with an error at a line of
# it, rather than dying (killed when out of memory, an internal error).
refused() {
	grep -q -E '^[^ ]+:[0-9]+:[0-9]+: error: ' "$dir/$1.log" &&
		! grep -q -E 'fatal error|internal compiler error' "$dir/$1.log"
}

# probe NAME: LWNFS_HAVE_NAME is defined when the C on stdin compiles
# after the headers lwnfs.c includes.  A probe that does not compile must
# be refused; a compiler that dies tells nothing about the API, and stops
# the build below rather than choose the old form.  The probes compile
# side by side, as many at once as there are CPUs: each compiler takes
# 100 to 150 MB on 7.x's headers, and a 1 GiB machine runs out with ten.
probes=()
running=$(nproc)
probe() {
	probes+=("$1")
	{ printf '#include <linux/%s.h>\n' module fs fs_context fs_parser \
		dcache; cat; } >"$dir/$1.in"
	while [ "$(jobs -pr | wc -l)" -ge "$running" ]; do
		wait -n || true
	done
	{
		if compiles "$1" <"$dir/$1.in"; then
			echo "#define LWNFS_HAVE_$1 1" >"$dir/$1.h"
		elif refused "$1"; then
			echo "/* LWNFS_HAVE_$1: no */" >"$dir/$1.h"
		fi
	} &
}

# older NAME API OLD: the C on stdin compiles only with the form of API
# that lwnfs.h falls back on when probe NAME does not compile (OLD names
# that form in the error).  It sees what the probes found (LWNFS_HAVE_*)
# and defines one thing, lwnfs_probe; it is compiled after the probes,
# and counts only where NAME's probe failed.
olders=()
older() {
	olders+=("$1")
	printf '%s\t%s\n' "$2" "$3" >"$dir/$1.api"
	cat >"$dir/$1.older"
}

if ! compiles floor <<'EOF'
#include <linux/version.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "lwnfs needs Linux 5.10 or later"
#endif
EOF
then
	if grep -q 'error: #error' "$dir/floor.log"; then
		code=$(printf '#include <linux/version.h>\nLINUX_VERSION_CODE\n' |
			"$cc" "${cflags[@]}" -E -P -x c - | tail -n 1)
		echo "lwnfs: error: Linux 5.10 or later is needed;" \
			"$release's headers are $((code >> 16)).$(((code >> 8) & 255))" >&2
	else	# no headers, no compiler: show what the compiler said
		cat "$dir/floor.log" >&2
	fi
	exit 1
fi


# 5.12, 549c7297717c "fs: make helpers idmap mount aware": directory
# inode operations take the mount's struct user_namespace * first.
probe IOP_USERNS <<'EOF'
int lwnfs_probe(struct user_namespace *ns, struct inode *d,
		struct dentry *e, struct inode *nd, struct dentry *ne,
		unsigned int f);
const struct inode_operations lwnfs_probe_iops = { .rename = lwnfs_probe };
EOF

# 6.3, e18275ae55e0 "fs: port ->rename() to pass mnt_idmap" (and the
# series around it): a struct mnt_idmap * instead.
probe IOP_IDMAP <<'EOF'
int lwnfs_probe(struct mnt_idmap *idmap, struct inode *d,
		struct dentry *e, struct inode *nd, struct dentry *ne,
		unsigned int f);
const struct inode_operations lwnfs_probe_iops = { .rename = lwnfs_probe };
EOF
# IOP_USERNS and IOP_IDMAP are the newer forms of one API; without
# either, 5.10's: no namespace first, for the operations and the helpers
# they call.
older IOP_IDMAP 'the directory inode operations' \
	'a struct user_namespace * (5.12) or nothing (5.10) first' <<'EOF'
#ifndef LWNFS_HAVE_IOP_USERNS
int lwnfs_probe(const struct inode_operations *iops, struct inode *dir,
		struct dentry *dentry, struct iattr *attr);
int lwnfs_probe(const struct inode_operations *iops, struct inode *dir,
		struct dentry *dentry, struct iattr *attr)
{
	inode_init_owner(dir, dir, 0);
	return iops->create(dir, dentry, 0, false) +
		iops->mkdir(dir, dentry, 0) +
		iops->rename(dir, dentry, dir, dentry, 0) +
		iops->setattr(dentry, attr) +
		simple_rename(dir, dentry, dir, dentry, 0) +
		simple_setattr(dentry, attr);
}
#endif
EOF

# 6.0, 66fa3cedf16a "fs: Add async write file modification handling.":
# kiocb_modified(), file_modified() for a kiocb.
probe KIOCB_MODIFIED <<'EOF'
int lwnfs_probe(struct kiocb *iocb);
int lwnfs_probe(struct kiocb *iocb)
{
	return kiocb_modified(iocb);
}
EOF
older KIOCB_MODIFIED 'kiocb_modified()' 'file_modified() of before 6.0' <<'EOF'
int lwnfs_probe(struct kiocb *iocb);
int lwnfs_probe(struct kiocb *iocb)
{
	return file_modified(iocb->ki_filp);
}
EOF

# 6.5, 33b8a0a8e9d5 "splice: Add a func to do a splice from a buffered
# file without ITER_PIPE" (copy_splice_read(); generic_file_splice_read()
# went in the same release).
probe COPY_SPLICE_READ <<'EOF'
const struct file_operations lwnfs_probe_fops = {
	.splice_read = copy_splice_read,
};
EOF
older COPY_SPLICE_READ 'copy_splice_read()' \
	'generic_file_splice_read() of before 6.5' <<'EOF'
const struct file_operations lwnfs_probe = {
	.splice_read = generic_file_splice_read,
};
EOF

# 6.6, 9b6304c1d537 "fs: add ctime accessors infrastructure"
# (Debian's 5.10 and 6.1 have it too, from stable).
probe INODE_SET_CTIME_CURRENT <<'EOF'
struct timespec64 lwnfs_probe(struct inode *inode);
struct timespec64 lwnfs_probe(struct inode *inode)
{
	return inode_set_ctime_current(inode);
}
EOF
older INODE_SET_CTIME_CURRENT 'inode_set_ctime_current()' \
	'i_ctime of before 6.6' <<'EOF'
struct timespec64 lwnfs_probe(struct inode *inode);
struct timespec64 lwnfs_probe(struct inode *inode)
{
	inode->i_ctime = current_time(inode);
	return inode->i_ctime;
}
EOF

# 6.6, 6bcdfd2cac55 "security: Allow all LSMs to provide xattrs for
# inode_init_security hook": security_inode_init_security() returns 0
# where a module's hook says -EOPNOTSUPP (no attribute to store) with no
# initxattrs callback too, as it did with one; before, it passed that
# -EOPNOTSUPP on.  The hook's new form (an xattr array and a count) is
# what the headers show of it.
probe INODE_INIT_SECURITY_XATTRS <<'EOF'
#include <linux/lsm_hooks.h>
int lwnfs_probe_hook(struct inode *inode, struct inode *dir,
		     const struct qstr *qstr, struct xattr *xattrs,
		     int *xattr_count);
const union security_list_options lwnfs_probe_hooks = {
	.inode_init_security = lwnfs_probe_hook,
};
int lwnfs_probe(struct inode *inode, struct inode *dir);
int lwnfs_probe(struct inode *inode, struct inode *dir)
{
	return security_inode_init_security(inode, dir, NULL, NULL, NULL);
}
EOF
older INODE_INIT_SECURITY_XATTRS 'security_inode_init_security()' \
	'its hook with a name, a value and a length, of before 6.6' <<'EOF'
#include <linux/lsm_hooks.h>
int lwnfs_probe(union security_list_options *hooks,
		int (*hook)(struct inode *, struct inode *,
			    const struct qstr *, const char **, void **,
			    size_t *),
		struct inode *inode, struct inode *dir);
int lwnfs_probe(union security_list_options *hooks,
		int (*hook)(struct inode *, struct inode *,
			    const struct qstr *, const char **, void **,
			    size_t *),
		struct inode *inode, struct inode *dir)
{
	hooks->inode_init_security = hook;
	return security_inode_init_security(inode, dir, NULL, NULL, NULL);
}
EOF

# 6.7, 077c212f0344 "fs: new accessor methods for atime and mtime".
probe INODE_SET_MTIME_TO_TS <<'EOF'
struct timespec64 lwnfs_probe(struct inode *inode, struct timespec64 ts);
struct timespec64 lwnfs_probe(struct inode *inode, struct timespec64 ts)
{
	return inode_set_mtime_to_ts(inode, ts);
}
EOF
older INODE_SET_MTIME_TO_TS 'inode_set_mtime_to_ts()' \
	'i_mtime of before 6.7' <<'EOF'
void lwnfs_probe(struct inode *inode, struct timespec64 ts);
void lwnfs_probe(struct inode *inode, struct timespec64 ts)
{
	inode->i_mtime = ts;
}
EOF

# 6.7, "fs: add a new simple_inode_init_ts helper" (with the accessors).
probe SIMPLE_INODE_INIT_TS <<'EOF'
struct timespec64 lwnfs_probe(struct inode *inode);
struct timespec64 lwnfs_probe(struct inode *inode)
{
	return simple_inode_init_ts(inode);
}
EOF
older SIMPLE_INODE_INIT_TS 'simple_inode_init_ts()' \
	'i_atime of before 6.7' <<'EOF'
void lwnfs_probe(struct inode *inode, struct timespec64 ts);
void lwnfs_probe(struct inode *inode, struct timespec64 ts)
{
	inode->i_atime = ts;
}
EOF

# 6.11, 9f111059e725 "fs_parse: add uid & gid option option parsing
# helpers": fsparam_uid()/fsparam_gid() and result->uid/gid.
probe FSPARAM_UID <<'EOF'
const struct fs_parameter_spec lwnfs_probe_params[] = {
	fsparam_uid("uid", 0),
	{}
};
kuid_t lwnfs_probe(struct fs_parse_result *result);
kuid_t lwnfs_probe(struct fs_parse_result *result)
{
	return result->uid;
}
EOF
older FSPARAM_UID 'fsparam_uid()' \
	'fsparam_u32() and make_kuid() of before 6.11' <<'EOF'
kuid_t lwnfs_probe(struct fs_context *fc, struct fs_parse_result *result);
kuid_t lwnfs_probe(struct fs_context *fc, struct fs_parse_result *result)
{
	static const struct fs_parameter_spec params[] = {
		fsparam_u32("uid", 0),
		{}
	};

	(void)params;
	return make_kuid(fc->user_ns, result->uint_32);
}
EOF

# 6.15, 88d5baf69082 "Change inode_operations.mkdir to return struct
# dentry *".
probe IOP_MKDIR_DENTRY <<'EOF'
struct dentry *lwnfs_probe(const struct inode_operations *iops);
struct dentry *lwnfs_probe(const struct inode_operations *iops)
{
	return iops->mkdir(NULL, (struct inode *)NULL, (struct dentry *)NULL,
			   (umode_t)0);
}
EOF
older IOP_MKDIR_DENTRY '->mkdir()' \
	'its int result of before 6.15' <<'EOF'
#if defined(LWNFS_HAVE_IOP_IDMAP) || defined(LWNFS_HAVE_IOP_USERNS)
int lwnfs_probe(const struct inode_operations *iops);
int lwnfs_probe(const struct inode_operations *iops)
{
	return iops->mkdir(NULL, (struct inode *)NULL, (struct dentry *)NULL,
			   (umode_t)0);
}
#endif
EOF

# 6.18, f99b3917789d "fs: rename generic_delete_inode() and
# generic_drop_inode()".
probe INODE_JUST_DROP <<'EOF'
int lwnfs_probe(struct inode *inode);
int lwnfs_probe(struct inode *inode)
{
	return inode_just_drop(inode);
}
EOF
older INODE_JUST_DROP 'inode_just_drop()' \
	'generic_delete_inode() of before 6.18' <<'EOF'
int lwnfs_probe(struct inode *inode);
int lwnfs_probe(struct inode *inode)
{
	return generic_delete_inode(inode);
}
EOF

# 6.19, "new helper: d_make_persistent()" (Al Viro's tree-in-dcache
# series): the pin, which kill_anon_super() drops; kill_litter_super()
# went with it.
probe D_MAKE_PERSISTENT <<'EOF'
struct dentry *lwnfs_probe(struct dentry *dentry, struct inode *inode);
struct dentry *lwnfs_probe(struct dentry *dentry, struct inode *inode)
{
	return d_make_persistent(dentry, inode);
}
EOF
older D_MAKE_PERSISTENT 'd_make_persistent()' \
	'kill_litter_super() of before 6.19' <<'EOF'
void lwnfs_probe(struct super_block *sb);
void lwnfs_probe(struct super_block *sb)
{
	kill_litter_super(sb);
}
EOF

# 7.0, "slab: Introduce kmalloc_obj() and family", also in 6.12 stable:
# kzalloc_obj() takes the object, not its size.
probe KZALLOC_OBJ <<'EOF'
#include <linux/slab.h>
struct inode *lwnfs_probe(void);
struct inode *lwnfs_probe(void)
{
	struct inode *inode = kzalloc_obj(*inode, GFP_KERNEL);

	return inode;
}
EOF
older KZALLOC_OBJ 'kzalloc_obj()' 'kzalloc() with a size, of before 7.0' <<'EOF'
#include <linux/slab.h>
struct inode *lwnfs_probe(void);
struct inode *lwnfs_probe(void)
{
	return kzalloc(sizeof(struct inode), GFP_KERNEL);
}
EOF

# 7.3: ->create() lost its bool excl argument.  Called, not assigned, so
# that a backport onto a kernel whose first argument is still a struct
# user_namespace * is found too.
probe IOP_CREATE_NO_EXCL <<'EOF'
int lwnfs_probe(const struct inode_operations *iops);
int lwnfs_probe(const struct inode_operations *iops)
{
	return iops->create(NULL, (struct inode *)NULL, (struct dentry *)NULL,
			    (umode_t)0);
}
EOF
older IOP_CREATE_NO_EXCL '->create()' \
	'its bool excl of before 7.3' <<'EOF'
#if defined(LWNFS_HAVE_IOP_IDMAP) || defined(LWNFS_HAVE_IOP_USERNS)
int lwnfs_probe(const struct inode_operations *iops);
int lwnfs_probe(const struct inode_operations *iops)
{
	return iops->create(NULL, (struct inode *)NULL, (struct dentry *)NULL,
			    (umode_t)0, false);
}
#endif
EOF
wait
# died NAME: say that the compiler died on NAME's C, and stop.
died() {
	echo "lwnfs: error: the compiler failed on probe $1 without an error in it" \
		"(out of memory?): $(grep -m 1 . "$dir/$1.log")" >&2
	exit 1
}
for name in "${probes[@]}"; do
	[ -e "$dir/$name.h" ] || died "$name"
done
{
	echo "/* Generated by conftest.sh for Linux $release: do not edit. */"
	for name in "${probes[@]}"; do
		cat "$dir/$name.h"
	done
} >"$out.tmp"

# The older forms, in one compile, each under #ifndef LWNFS_HAVE_<PROBE>
# as in lwnfs.h and its lwnfs_probe named after it; only when that one
# fails, one at a time, to name the API.
older_c() {
	local name
	printf '#include <linux/%s.h>\n' module fs fs_context fs_parser dcache
	cat "$out.tmp"
	for name in "$@"; do
		printf '#ifndef LWNFS_HAVE_%s\n#define lwnfs_probe lwnfs_older_%s\n' "$name" "$name"
		cat "$dir/$name.older"
		printf '#undef lwnfs_probe\n#endif\n'
	done
}
if ! older_c "${olders[@]}" | compiles OLDER; then
	unknown=0
	for name in "${olders[@]}"; do
		! grep -q "^#define LWNFS_HAVE_$name " "$out.tmp" || continue
		older_c "$name" | compiles "OLDER_$name" && continue
		refused "OLDER_$name" || died "OLDER_$name"
		IFS=$'\t' read -r api old <"$dir/$name.api"
		echo "lwnfs: error: Linux $release has no known form of $api" \
			"(not the newer one, probe $name, nor $old);" \
			'see README.md, "Supported kernels"' >&2
		unknown=1
	done
	[ "$unknown" = 1 ] || died OLDER
	exit 1
fi

# What every compile above read, but its own C, one prerequisite a line.
# fixdep takes the first prerequisite for the source, so this script
# comes first.
{
	printf '%s: %s' "$out" "$0"
	sed -e 's/^[^:]*://' -e 's/\\$//' "$dir"/*.d | tr -s ' \t' '\n' |
		grep -v -F -e "$dir/" | grep . | sort -u |
		awk '{ printf " \\\n  %s", $0 } END { print "" }'
} >"$depfile"
mv "$out.tmp" "$out"
