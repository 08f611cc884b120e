/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constants and kernel compatibility for lwnfs.
 *
 * lwnfs.c is written against the newest kernel API.  Each block below
 * supplies one newer API on the older kernels lwnfs supports (5.10 on),
 * so that the differences between releases live here and nowhere else.
 * Which kernel has which form is not guessed from its version, which
 * distributions' backports make lie: conftest.sh compiles a probe per API
 * against the headers being built against and defines LWNFS_HAVE_<API>
 * in conftest.h for each form they have.  Where a probe fails it checks
 * the older form used below, and stops the build in one line naming the
 * API when the headers have neither.
 */
#ifndef _LWNFS_H
#define _LWNFS_H

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uidgid.h>

#include "conftest.h"

#define LWNFS_MAGIC		0x19980122	/* the 2002 article's LFS_MAGIC */
#define LWNFS_VERSION		"1.0.0"

/* Longest write accepted: "-9223372036854775808\n" is 21 bytes. */
#define LWNFS_WRITE_MAX		32

/* Room for the text of any s64 and its newline. */
#define LWNFS_TEXT_MAX		24

/* Mount option defaults. */
#define LWNFS_DEFAULT_MODE		0755
#define LWNFS_DEFAULT_MAX_COUNTERS	4096

/* 6.18 renamed generic_delete_inode() to inode_just_drop(). */
#ifndef LWNFS_HAVE_INODE_JUST_DROP
#define inode_just_drop generic_delete_inode
#endif

/*
 * 6.19 added d_make_persistent() to pin a dentry, and kill_anon_super()
 * unpins such dentries.  Before it, an extra dentry reference is the pin
 * and kill_litter_super() drops it at umount: the two must switch together.
 */
#ifndef LWNFS_HAVE_D_MAKE_PERSISTENT
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

/* 6.0 added kiocb_modified(), file_modified() for a kiocb. */
#ifndef LWNFS_HAVE_KIOCB_MODIFIED
static inline int kiocb_modified(struct kiocb *iocb)
{
	return file_modified(iocb->ki_filp);
}
#endif

/*
 * 6.5 made splice read through ->read_iter into pages of its own with
 * copy_splice_read(); before, generic_file_splice_read() did the same
 * through a pipe iterator.
 */
#ifndef LWNFS_HAVE_COPY_SPLICE_READ
#define copy_splice_read generic_file_splice_read
#endif

/*
 * 6.6 hid i_ctime behind inode_set_ctime_current(); Debian's 5.10 and 6.1
 * have it too, from stable (tests/data/conftest.expected).
 */
#ifndef LWNFS_HAVE_INODE_SET_CTIME_CURRENT
static inline struct timespec64 inode_set_ctime_current(struct inode *inode)
{
	inode->i_ctime = current_time(inode);
	return inode->i_ctime;
}
#endif

/*
 * 6.6 made security_inode_init_security() return 0 where a security
 * module's hook answers -EOPNOTSUPP, no attribute to store, also when
 * the caller passes no initxattrs callback; before, that call passed the
 * -EOPNOTSUPP on: SELinux's, after labelling the inode in memory, on a
 * filesystem that stores no xattrs, and the default where no module has
 * the hook.  It was never an error: shmem took it as none.
 */
#ifndef LWNFS_HAVE_INODE_INIT_SECURITY_XATTRS
static inline int lwnfs_inode_init_security(struct inode *inode,
					    struct inode *dir,
					    const struct qstr *qstr,
					    const initxattrs callback,
					    void *fs_data)
{
	int err = security_inode_init_security(inode, dir, qstr, callback,
					       fs_data);

	return err == -EOPNOTSUPP ? 0 : err;
}

#define security_inode_init_security lwnfs_inode_init_security
#endif

/* 6.7 moved atime and mtime behind accessors too. */
#ifndef LWNFS_HAVE_INODE_SET_MTIME_TO_TS
static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode,
						      struct timespec64 ts)
{
	inode->i_mtime = ts;
	return ts;
}
#endif

#ifndef LWNFS_HAVE_SIMPLE_INODE_INIT_TS
static inline struct timespec64 simple_inode_init_ts(struct inode *inode)
{
	struct timespec64 ts = inode_set_ctime_current(inode);

	inode->i_atime = ts;
	inode_set_mtime_to_ts(inode, ts);
	return ts;
}
#endif

/* 7.0 (and 6.12 stable) added kzalloc_obj(), sized from its type. */
#ifndef LWNFS_HAVE_KZALLOC_OBJ
#define kzalloc_obj(P, GFP) kzalloc(sizeof(P), GFP)
#endif

/*
 * 6.11 added fsparam_uid/gid, which map the id into the mounter's user
 * namespace; before, take a u32 and map it the same way.
 */
#ifndef LWNFS_HAVE_FSPARAM_UID
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
 * a struct user_namespace * from 5.12, nothing before), mkdir returning
 * a dentry (6.15) and create without "bool excl" (7.3).  lwnfs_iop_*
 * adapt them where the kernel's differ.
 */
#ifndef LWNFS_HAVE_IOP_IDMAP
#define mnt_idmap user_namespace
#endif

static int lwnfs_create(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode);
static struct dentry *lwnfs_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				  struct dentry *dentry, umode_t mode);
static int lwnfs_rename(struct mnt_idmap *idmap, struct inode *old_dir,
			struct dentry *old_dentry, struct inode *new_dir,
			struct dentry *new_dentry, unsigned int flags);
static int lwnfs_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
			 struct iattr *attr);

/*
 * Before 5.12 neither the inode operations nor the helpers they call
 * (simple_rename(), simple_setattr(), inode_init_owner(): the same
 * series) take the mount's namespace.
 */
#if !defined(LWNFS_HAVE_IOP_IDMAP) && !defined(LWNFS_HAVE_IOP_USERNS)
#define simple_rename(idmap, ...) simple_rename(__VA_ARGS__)
#define simple_setattr(idmap, ...) simple_setattr(__VA_ARGS__)
#define inode_init_owner(idmap, ...) inode_init_owner(__VA_ARGS__)

static inline int lwnfs_iop_create(struct inode *dir, struct dentry *dentry,
				   umode_t mode, bool excl)
{
	return lwnfs_create(NULL, dir, dentry, mode);
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

static inline int lwnfs_iop_setattr(struct dentry *dentry, struct iattr *attr)
{
	return lwnfs_setattr(NULL, dentry, attr);
}
#else
#define lwnfs_iop_rename lwnfs_rename
#define lwnfs_iop_setattr lwnfs_setattr

#ifdef LWNFS_HAVE_IOP_CREATE_NO_EXCL
#define lwnfs_iop_create lwnfs_create
#else
static inline int lwnfs_iop_create(struct mnt_idmap *idmap, struct inode *dir,
				   struct dentry *dentry, umode_t mode,
				   bool excl)
{
	return lwnfs_create(idmap, dir, dentry, mode);
}
#endif

#ifdef LWNFS_HAVE_IOP_MKDIR_DENTRY
#define lwnfs_iop_mkdir lwnfs_mkdir
#else
static inline int lwnfs_iop_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				  struct dentry *dentry, umode_t mode)
{
	return PTR_ERR_OR_ZERO(lwnfs_mkdir(idmap, dir, dentry, mode));
}
#endif
#endif

#endif /* _LWNFS_H */
