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
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/uidgid.h>
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

/* Mount option defaults. */
#define LWNFS_DEFAULT_MODE		0755
#define LWNFS_DEFAULT_MAX_COUNTERS	4096

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
	if (d_unhashed(dentry))
		d_add(dentry, inode);
	else
		d_instantiate(dentry, inode);
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

/*
 * 6.11 added fsparam_uid/gid, which map the id into the mounter's user
 * namespace; before, take a u32 and map it the same way.
 */
#if LWNFS_BEFORE(6, 11)
#define fsparam_uid(name, opt) fsparam_u32(name, opt)
#define fsparam_gid(name, opt) fsparam_u32(name, opt)

static inline kuid_t lwnfs_result_uid(struct fs_context *fc,
				      struct fs_parse_result *result)
{
	return make_kuid(fc->user_ns, result->uint_32);
}

static inline kgid_t lwnfs_result_gid(struct fs_context *fc,
				      struct fs_parse_result *result)
{
	return make_kgid(fc->user_ns, result->uint_32);
}
#else
static inline kuid_t lwnfs_result_uid(struct fs_context *fc,
				      struct fs_parse_result *result)
{
	return result->uid;
}

static inline kgid_t lwnfs_result_gid(struct fs_context *fc,
				      struct fs_parse_result *result)
{
	return result->gid;
}
#endif

/*
 * Directory inode operations as this kernel declares them.  lwnfs.c
 * writes them for the newest kernel: a struct mnt_idmap * first (6.3;
 * a struct user_namespace * from 5.12, nothing before) and mkdir
 * returning a dentry (6.15).  lwnfs_iop_* adapt them where needed.
 */
#if LWNFS_BEFORE(6, 3)
#define mnt_idmap user_namespace
#endif

static int lwnfs_create(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode, bool excl);
static struct dentry *lwnfs_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				  struct dentry *dentry, umode_t mode);
static int lwnfs_rename(struct mnt_idmap *idmap, struct inode *old_dir,
			struct dentry *old_dentry, struct inode *new_dir,
			struct dentry *new_dentry, unsigned int flags);

#if LWNFS_BEFORE(5, 12)
#define simple_rename(idmap, ...) simple_rename(__VA_ARGS__)

static inline int lwnfs_iop_create(struct inode *dir, struct dentry *dentry,
				   umode_t mode, bool excl)
{
	return lwnfs_create(NULL, dir, dentry, mode, excl);
}

static inline int lwnfs_iop_mkdir(struct inode *dir, struct dentry *dentry,
				  umode_t mode)
{
	return PTR_ERR_OR_ZERO(lwnfs_mkdir(NULL, dir, dentry, mode));
}

static inline int lwnfs_iop_rename(struct inode *old_dir,
				   struct dentry *old_dentry,
				   struct inode *new_dir,
				   struct dentry *new_dentry, unsigned int flags)
{
	return lwnfs_rename(NULL, old_dir, old_dentry, new_dir, new_dentry,
			    flags);
}
#else
#define lwnfs_iop_create lwnfs_create
#define lwnfs_iop_rename lwnfs_rename
#if LWNFS_BEFORE(6, 15)
static inline int lwnfs_iop_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				  struct dentry *dentry, umode_t mode)
{
	return PTR_ERR_OR_ZERO(lwnfs_mkdir(idmap, dir, dentry, mode));
}
#else
#define lwnfs_iop_mkdir lwnfs_mkdir
#endif
#endif

#endif /* _LWNFS_H */
