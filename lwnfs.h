/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constants and kernel compatibility for lwnfs.
 *
 * lwnfs.c is written against the newest kernel API.  Each block below
 * supplies one newer API on the older kernels lwnfs supports (5.10 on),
 * so that the differences between releases live here and nowhere else.
 */
#ifndef _LWNFS_H
#define _LWNFS_H

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/version.h>

#define LWNFS_MAGIC		0x19980122	/* the 2002 article's LFS_MAGIC */
#define LWNFS_VERSION		"1.0.0"

/*
 * True when building for a kernel older than major.minor.  An out-of-tree
 * module has to know which kernel it is built for: this is the one place
 * that asks (checkpatch's LINUX_VERSION_CODE warning is expected here).
 */
#define LWNFS_BEFORE(major, minor) \
	(KERNEL_VERSION(major, minor, 0) > LINUX_VERSION_CODE)

/* Longest write accepted: "-9223372036854775808\n" is 21 bytes. */
#define LWNFS_WRITE_MAX		32

/* Room for the text of any s64 and its newline. */
#define LWNFS_TEXT_MAX		24

/* 6.18 renamed generic_delete_inode() to inode_just_drop(). */
#if LWNFS_BEFORE(6, 18)
#define inode_just_drop generic_delete_inode
#endif

/*
 * 6.19 added d_make_persistent() to pin a dentry, and kill_anon_super()
 * unpins such dentries.  Before it, an extra dentry reference is the pin
 * and kill_litter_super() drops it at umount: the two must switch together.
 */
#if LWNFS_BEFORE(6, 19)
static inline struct dentry *d_make_persistent(struct dentry *dentry,
					       struct inode *inode)
{
	d_add(dentry, inode);
	return dget(dentry);
}

#define kill_anon_super kill_litter_super
#endif

/*
 * 6.6 hid i_ctime behind inode_set_ctime_current().  Debian's 5.10 and 6.1
 * carry a backport of it, a mainline kernel does not: gate on the version
 * and use our own, which is right either way.
 */
#if LWNFS_BEFORE(6, 6)
#define inode_set_ctime_current lwnfs_set_ctime_current
static inline struct timespec64 lwnfs_set_ctime_current(struct inode *inode)
{
	inode->i_ctime = current_time(inode);
	return inode->i_ctime;
}
#endif

/* 6.7 moved the timestamps behind accessors. */
#if LWNFS_BEFORE(6, 7)
static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_mtime = ts;
	return ts;
}

static inline struct timespec64 simple_inode_init_ts(struct inode *inode)
{
	struct timespec64 ts = inode_set_ctime_current(inode);

	inode->i_atime = ts;
	inode->i_mtime = ts;
	return ts;
}
#endif

#endif /* _LWNFS_H */
