// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs - a filesystem of counter files
 *
 * A modern port of the libfs example in "Creating Linux virtual
 * filesystems" (Jonathan Corbet, LWN, 2002).  Reading a counter returns
 * its value and increments it; writing a number sets it.  The whole tree
 * lives in the dentry cache: no lookup, no backing store.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "lwnfs.h"

/*
 * The fixed tree: the root and the article's three entries.  Their inode
 * numbers are 1 to 4 (simple_fill_super() gives the root 1); what users
 * make takes the lowest number after them that no live inode has, so
 * that no two inodes ever share one and none wraps.
 */
enum lwnfs_builtin {
	LWNFS_ROOT,
	LWNFS_COUNTER,
	LWNFS_SUBDIR,
	LWNFS_SUBCOUNTER,
	LWNFS_NR_BUILTIN,
};

enum lwnfs_param {
	LWNFS_OPT_UID,
	LWNFS_OPT_GID,
	LWNFS_OPT_MODE,
	LWNFS_OPT_MAX_COUNTERS,
};

/* Mount options, as parsed for one mount or remount. */
struct lwnfs_options {
	kuid_t uid;		/* owner of the built-in tree */
	kgid_t gid;
	umode_t mode;		/* of the root directory */
	unsigned int max_counters;	/* user-made counters and directories */
	unsigned int set;	/* BIT(LWNFS_OPT_*) of the options given */
};

/* One per superblock: the options in force and what users made. */
struct lwnfs_sb {
	struct mutex lock;	/* orders option changes against their readers */
	struct lwnfs_options opts;
	atomic_t made;		/* user-made counters and directories */
	struct ida inos;	/* inode numbers of what users made */
	/* pinned in the dentry cache from fill_super to kill_sb */
	struct inode *builtin[LWNFS_NR_BUILTIN];
};

/*
 * The counters belong to the module, not to a superblock: they start at 0
 * on load and keep their values across umount and mount.  Each holds the
 * next value a read hands out.
 */
static atomic64_t lwnfs_counter = ATOMIC64_INIT(0);
static atomic64_t lwnfs_subcounter = ATOMIC64_INIT(0);

/* Per open file: the value it last took, which reads past 0 continue. */
struct lwnfs_file {
	atomic64_t value;
	bool taken;
};

static int lwnfs_open(struct inode *inode, struct file *file)
{
	struct lwnfs_file *lf = kzalloc_obj(*lf, GFP_KERNEL_ACCOUNT);

	if (!lf)
		return -ENOMEM;
	file->private_data = lf;
	return 0;
}

static int lwnfs_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * Write "<value>\n" so that it ends at @end and return where it starts.
 * A digit loop of its own rather than vsnprintf(): every read formats a
 * value, and needs none of its generality.
 */
static char *lwnfs_format(char *end, s64 value)
{
	u64 rest = value < 0 ? -(u64)value : value;
	char *p = end;
	u32 digit;

	*--p = '\n';
	do {
		rest = div_u64_rem(rest, 10, &digit);
		*--p = '0' + digit;
	} while (rest);
	if (value < 0)
		*--p = '-';
	return p;
}

/*
 * Take the next value of @counter into @value for a read at position 0,
 * its text copied to @to first: a value is taken only once its text is
 * out, so that a buffer that cannot be written takes none.  When another
 * reader or a write changes the counter first, the copy is taken back and
 * made again for the value it holds then.  Returns the bytes copied, all
 * the text or as much of it as @to has room for, or an error.
 */
static ssize_t lwnfs_take(atomic64_t *counter, struct iov_iter *to,
			  s64 *value)
{
	char text[LWNFS_TEXT_MAX], *end = text + sizeof(text), *start;
	s64 next = atomic64_read(counter);
	size_t len;

	for (;;) {
		/* S64_MAX is never handed out: its successor cannot be stored. */
		if (next == S64_MAX)
			return -EOVERFLOW;
		start = lwnfs_format(end, next);
		len = copy_to_iter(start, end - start, to);
		if (!len)
			return -EFAULT;
		if (atomic64_try_cmpxchg(counter, &next, next + 1))
			break;
		iov_iter_revert(to, len);
	}
	*value = next;
	return len;
}

/*
 * A read further on: the rest of the text of the value this file took
 * last, so that a short read still counts once.  Threads sharing the
 * file share that value: the rest is of whichever read at 0 came last.
 */
static ssize_t lwnfs_read_rest(struct lwnfs_file *lf, struct kiocb *iocb,
			       struct iov_iter *to)
{
	char text[LWNFS_TEXT_MAX], *end = text + sizeof(text), *start;
	size_t copied;

	/* pairs with the release in lwnfs_read_iter(): @taken true, @value set */
	if (!smp_load_acquire(&lf->taken))
		return 0;
	start = lwnfs_format(end, atomic64_read(&lf->value));
	if (iocb->ki_pos >= end - start)
		return 0;
	copied = copy_to_iter(start + iocb->ki_pos, end - start - iocb->ki_pos,
			      to);
	if (!copied)
		return -EFAULT;
	iocb->ki_pos += copied;
	return copied;
}

/*
 * A read at position 0 takes a value with one atomic compare-and-exchange
 * (lwnfs_take()), so no two reads at 0 ever see the same value and none
 * is lost.  One read is one value whatever carries it: read(2), readv(2)
 * with several buffers, splice(2), sendfile(2), io_uring, kernel_read().
 */
static ssize_t lwnfs_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct lwnfs_file *lf = iocb->ki_filp->private_data;
	ssize_t copied;
	s64 value;

	/*
	 * io_uring tries a regular file without a block device with
	 * IOCB_NOWAIT first (before 6.5, whatever FMODE_NOWAIT says), and
	 * reads on at the position reached when a read comes back short,
	 * as every read of a value does: that rest would be the file's last
	 * value, maybe another request's.  So such a try is sent to
	 * io_uring's threads, where one blocking read is all.
	 */
	if (iocb->ki_flags & IOCB_NOWAIT)
		return -EAGAIN;
	if (!iov_iter_count(to))
		return 0;
	if (iocb->ki_pos != 0)
		return lwnfs_read_rest(lf, iocb, to);
	copied = lwnfs_take(file_inode(iocb->ki_filp)->i_private, to, &value);
	if (copied < 0)
		return copied;
	atomic64_set(&lf->value, value);
	/* @value is set before @taken reads true: pairs with lwnfs_read_rest() */
	smp_store_release(&lf->taken, true);
	iocb->ki_pos = copied;
	return copied;
}

/*
 * A write sets the counter to one decimal s64, with an optional sign and
 * at most one trailing newline, written in one go at position 0.  An
 * appending write (O_APPEND) goes at the end, i_size, which is always 0
 * for a counter (lwnfs_setattr()): each one is a write at 0.  Then the
 * library's checks, as for every file: RLIMIT_FSIZE (SIGXFSZ and EFBIG)
 * and where O_APPEND writes; a write they would cut short is refused with
 * EFBIG, since part of a number is another number.  Anything else is
 * refused and leaves the counter, its mode and its times as they were.
 */
static ssize_t lwnfs_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	char text[LWNFS_WRITE_MAX + 1];
	size_t count = iov_iter_count(from);
	s64 value;
	ssize_t ret;

	if (iocb->ki_flags & IOCB_NOWAIT)	/* the inode lock may sleep */
		return -EAGAIN;
	if (count > LWNFS_WRITE_MAX ||
	    (iocb->ki_pos != 0 && !(iocb->ki_flags & IOCB_APPEND)))
		return -EINVAL;
	inode_lock(inode);
	ret = generic_write_checks(iocb, from);
	if (ret < 0)
		goto out;
	if (ret != count) {
		ret = -EFBIG;
		goto out;
	}
	ret = -EFAULT;
	if (copy_from_iter(text, count, from) != count)
		goto out;
	text[count] = '\0';
	ret = -EINVAL;
	if (strlen(text) != count)	/* a NUL byte inside */
		goto out;
	ret = kstrtos64(text, 10, &value);
	if (ret)
		goto out;
	/*
	 * The set-user-ID and set-group-ID bits a write clears go, and the
	 * times move, before the value changes: a write that fails here
	 * changes no value.
	 */
	ret = kiocb_modified(iocb);
	if (ret)
		goto out;
	atomic64_set(inode->i_private, value);
	iocb->ki_pos += count;
	ret = count;
out:
	inode_unlock(inode);
	return ret;
}

/*
 * A counter's text has no end to seek to: its size is 0 (lwnfs_setattr())
 * whatever a read returns.  Open for reading, it seeks as /proc's
 * seq_file files do: from the start or from where the file is (SEEK_SET,
 * SEEK_CUR), and any other whence (SEEK_END, SEEK_DATA, SEEK_HOLE) fails
 * with EINVAL, so that tail(1) and other clients that look for the end
 * read the text through instead of taking the size for its end and
 * finding nothing.  Open only for writing, it seeks as a file of size 0,
 * whose end is where an appending write goes: fopen(3) in append mode
 * seeks there and fails without it.
 */
static loff_t lwnfs_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return no_seek_end_llseek_size(file, offset, whence,
					       file_inode(file)->i_sb->s_maxbytes);
	return generic_file_llseek(file, offset, whence);
}

/*
 * No FMODE_NOWAIT: io_uring's reads and writes run in its own threads.
 * No ->read beside ->read_iter, which /dev/zero has for a faster read(2):
 * kernel_read() refuses a file with both, failing execve(2) of a counter.
 * iter_file_splice_write() hands what splice(2) and sendfile(2) bring
 * from a pipe to ->write_iter, the pipe's buffers as an ITER_BVEC
 * iterator; without ->splice_write both fail with EINVAL.
 */
static const struct file_operations lwnfs_counter_fops = {
	.owner		= THIS_MODULE,
	.open		= lwnfs_open,
	.release	= lwnfs_release,
	.read_iter	= lwnfs_read_iter,
	.write_iter	= lwnfs_write_iter,
	.splice_read	= copy_splice_read,
	.splice_write	= iter_file_splice_write,
	.llseek		= lwnfs_llseek,
	.fsync		= noop_fsync,	/* nothing to write back */
};

/*
 * A counter's size means nothing: it stays 0 whatever a read returns, as
 * /proc/uptime's does (sysfs's files report a page instead).  Truncating
 * to 0, as O_TRUNC does for "echo 5 > counter", is accepted and leaves
 * the value alone; any other size is refused with EINVAL before anything
 * changes.
 */
static int lwnfs_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
			 struct iattr *attr)
{
	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size)
		return -EINVAL;
	return simple_setattr(idmap, dentry, attr);
}

static const struct inode_operations lwnfs_counter_iops = {
	.setattr	= lwnfs_iop_setattr,
};

static const struct inode_operations lwnfs_dir_iops;

/* By identity, not by inode number: a 32-bit i_ino wraps. */
static bool lwnfs_builtin(const struct inode *inode)
{
	struct lwnfs_sb *sbi = inode->i_sb->s_fs_info;
	int i;

	for (i = 0; i < LWNFS_NR_BUILTIN; i++)
		if (sbi->builtin[i] == inode)
			return true;
	return false;
}

/*
 * A new counter or directory inode, owned by root: the built-in tree's
 * owner is then set by the mount options, a made entry's by its creator.
 */
static struct inode *lwnfs_new_inode(struct super_block *sb, umode_t mode,
				     unsigned long ino, atomic64_t *counter)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = mode;
	simple_inode_init_ts(inode);
	if (S_ISDIR(mode)) {
		inode->i_op = &lwnfs_dir_iops;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);		/* "." */
	} else {
		inode->i_op = &lwnfs_counter_iops;
		inode->i_fop = &lwnfs_counter_fops;
		inode->i_private = counter;
	}
	return inode;
}

/*
 * Make @name in @parent and pin it in the dentry cache: the dentry cache
 * is the only place the tree exists.
 */
static struct dentry *lwnfs_make_builtin(struct dentry *parent,
					 const char *name, umode_t mode,
					 enum lwnfs_builtin which,
					 atomic64_t *counter)
{
	struct lwnfs_sb *sbi = parent->d_sb->s_fs_info;
	struct dentry *dentry;
	struct inode *inode;

	dentry = d_alloc_name(parent, name);
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	inode = lwnfs_new_inode(parent->d_sb, mode, which + 1, counter);
	if (!inode) {
		dput(dentry);
		return ERR_PTR(-ENOMEM);
	}
	if (S_ISDIR(mode))
		inc_nlink(d_inode(parent));	/* ".." */
	sbi->builtin[which] = inode;
	d_make_persistent(dentry, inode);
	dput(dentry);
	return dentry;
}

/*
 * Take one of the superblock's slots, if one is free.  Never more than
 * max_counters are taken, and a create fails only when all are: no
 * attempt that fails holds a slot, even for a moment.
 */
static bool lwnfs_reserve(struct lwnfs_sb *sbi)
{
	unsigned int max = READ_ONCE(sbi->opts.max_counters);
	int made = atomic_read(&sbi->made);

	do {
		if ((unsigned int)made >= max)
			return false;
	} while (!atomic_try_cmpxchg(&sbi->made, &made, made + 1));
	return true;
}

/*
 * User-made counters and directories.  Each takes one of the superblock's
 * max_counters slots until its inode is evicted (lwnfs_evict_inode()); a
 * counter's value is allocated with it, charged to its creator's memory
 * cgroup, and freed with it.  Each belongs to its creator, as on every
 * filesystem: inode_init_owner() gives it the caller's fsuid, and the
 * group of a set-group-ID directory or else the caller's fsgid.  Each
 * gets its security label as shmem's and ramfs's do, from
 * security_inode_init_security(): in memory only, with no xattrs to
 * store it in (no initxattrs callback).  A security module that refuses
 * the label fails the make with its errno, and the inode goes, its value
 * and its slot with it (lwnfs_evict_inode()): nothing is left half-made.
 */
static int lwnfs_make(struct mnt_idmap *idmap, struct inode *dir,
		      struct dentry *dentry, umode_t mode)
{
	struct lwnfs_sb *sbi = dir->i_sb->s_fs_info;
	atomic64_t *counter = NULL;
	struct inode *inode;
	int ino, err = -ENOMEM;

	if (!lwnfs_reserve(sbi))
		return -ENOSPC;
	if (S_ISREG(mode)) {
		counter = kzalloc_obj(*counter, GFP_KERNEL_ACCOUNT);
		if (!counter)
			goto undo;
	}
	ino = ida_alloc_min(&sbi->inos, LWNFS_NR_BUILTIN + 1, GFP_KERNEL);
	if (ino < 0) {
		err = ino;
		goto free;
	}
	inode = lwnfs_new_inode(dir->i_sb, mode, ino, counter);
	if (!inode) {
		ida_free(&sbi->inos, ino);
		goto free;
	}
	/* Numbers come back: a file handle must not match a later inode. */
	inode->i_generation = get_random_u32();
	inode_init_owner(idmap, inode, dir, mode);
	err = security_inode_init_security(inode, dir, &dentry->d_name, NULL,
					   NULL);
	if (err) {
		iput(inode);
		return err;
	}
	if (S_ISDIR(mode))
		inc_nlink(dir);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	d_make_persistent(dentry, inode);	/* the VFS keeps its own ref */
	return 0;
free:
	kfree(counter);
undo:
	atomic_dec(&sbi->made);
	return err;
}

static int lwnfs_create(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode)
{
	return lwnfs_make(idmap, dir, dentry, S_IFREG | (mode & S_IALLUGO));
}

/* NULL (ERR_PTR(0)) tells the VFS the dentry it gave us is the new one. */
static struct dentry *lwnfs_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				  struct dentry *dentry, umode_t mode)
{
	return ERR_PTR(lwnfs_make(idmap, dir, dentry,
				  S_IFDIR | (mode & S_IALLUGO)));
}

/*
 * Removing a name gives no slot back: the inode may live on, open or a
 * process's working directory, and its slot goes with it when it is
 * evicted (lwnfs_evict_inode()).
 */
static int lwnfs_unlink(struct inode *dir, struct dentry *dentry)
{
	if (lwnfs_builtin(d_inode(dentry)))
		return -EPERM;
	return simple_unlink(dir, dentry);
}

static int lwnfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (lwnfs_builtin(d_inode(dentry)))
		return -EPERM;
	return simple_rmdir(dir, dentry);
}

/*
 * Renames stay within lwnfs; the built-in tree neither moves nor goes.  An
 * entry a rename replaces gives its slot back when its inode is evicted.
 */
static int lwnfs_rename(struct mnt_idmap *idmap, struct inode *old_dir,
			struct dentry *old_dentry, struct inode *new_dir,
			struct dentry *new_dentry, unsigned int flags)
{
	struct inode *target = d_inode(new_dentry);

	if (lwnfs_builtin(d_inode(old_dentry)) ||
	    (target && lwnfs_builtin(target)))
		return -EPERM;
	return simple_rename(idmap, old_dir, old_dentry, new_dir, new_dentry,
			     flags);
}

/*
 * No .mknod, .symlink or .link: the VFS refuses those with EPERM, so
 * lwnfs holds only counters and directories (mknod(2) of S_IFREG is
 * create, and makes a counter).
 */
static const struct inode_operations lwnfs_dir_iops = {
	.lookup		= simple_lookup,
	.create		= lwnfs_iop_create,
	.mkdir		= lwnfs_iop_mkdir,
	.unlink		= lwnfs_unlink,
	.rmdir		= lwnfs_rmdir,
	.rename		= lwnfs_iop_rename,
};

/*
 * A user-made counter or directory gives its slot back when its inode
 * goes, once nothing holds it: not at unlink(2), rmdir(2) or a rename(2)
 * over it while a file is open on it or a process works in it, as
 * shmem_evict_inode() gives back tmpfs's nr_inodes.  A counter's value
 * goes with it.
 */
static void lwnfs_evict_inode(struct inode *inode)
{
	struct lwnfs_sb *sbi = inode->i_sb->s_fs_info;

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (lwnfs_builtin(inode))
		return;
	ida_free(&sbi->inos, inode->i_ino);
	kfree(inode->i_private);
	atomic_dec(&sbi->made);
}

static int lwnfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct lwnfs_sb *sbi = root->d_sb->s_fs_info;

	mutex_lock(&sbi->lock);
	if (!uid_eq(sbi->opts.uid, GLOBAL_ROOT_UID))
		seq_printf(m, ",uid=%u",
			   from_kuid_munged(&init_user_ns, sbi->opts.uid));
	if (!gid_eq(sbi->opts.gid, GLOBAL_ROOT_GID))
		seq_printf(m, ",gid=%u",
			   from_kgid_munged(&init_user_ns, sbi->opts.gid));
	if (sbi->opts.mode != LWNFS_DEFAULT_MODE)
		seq_printf(m, ",mode=%o", sbi->opts.mode);
	if (sbi->opts.max_counters != LWNFS_DEFAULT_MAX_COUNTERS)
		seq_printf(m, ",max_counters=%u", sbi->opts.max_counters);
	mutex_unlock(&sbi->lock);
	return 0;
}

/* Inodes are not cached once unused: the dentry cache pins all we need. */
static const struct super_operations lwnfs_super_ops = {
	.statfs		= simple_statfs,
	.drop_inode	= inode_just_drop,
	.evict_inode	= lwnfs_evict_inode,
	.show_options	= lwnfs_show_options,
};

/*
 * Give one inode of the fixed tree the owner, group and, for the root,
 * the mode that @o gives, under its inode lock, as chown(2) and chmod(2)
 * change them.  A new owner or group takes a file's set-user-ID bit
 * away, and its set-group-ID bit where chown(2) would: when the file is
 * group-executable, or when the task that mounts is neither in the
 * file's group nor holds CAP_FSETID (setattr_should_drop_sgid()).  What
 * changes sets ctime; an option that gives the inode what it has changes
 * nothing.
 */
static void lwnfs_apply_inode(struct inode *inode, bool root,
			      const struct lwnfs_options *o)
{
	bool owner_changes;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;

	inode_lock(inode);
	uid = o->set & BIT(LWNFS_OPT_UID) ? o->uid : inode->i_uid;
	gid = o->set & BIT(LWNFS_OPT_GID) ? o->gid : inode->i_gid;
	owner_changes = !uid_eq(uid, inode->i_uid) || !gid_eq(gid, inode->i_gid);
	mode = inode->i_mode;
	if (root && (o->set & BIT(LWNFS_OPT_MODE)))
		mode = S_IFDIR | o->mode;
	if (owner_changes && !S_ISDIR(mode)) {
		mode &= ~S_ISUID;
		if ((mode & S_ISGID) &&
		    ((mode & 0010) ||	/* group-executable */
		     !(in_group_p(inode->i_gid) || capable(CAP_FSETID))))
			mode &= ~S_ISGID;
	}
	if (owner_changes || mode != inode->i_mode) {
		inode->i_uid = uid;
		inode->i_gid = gid;
		inode->i_mode = mode;
		inode_set_ctime_current(inode);
	}
	inode_unlock(inode);
}

/*
 * Apply the options given to the first mount or to a remount to the
 * superblock.  An option not given changes nothing.  uid=, gid= and
 * mode= are the owner and mode of the fixed tree (mode= of its root
 * only), as tmpfs's are of its root; what users make belongs to its
 * creator (lwnfs_make()), chown and chmod included.  Only the fixed
 * tree's four inodes are changed.
 */
static void lwnfs_apply(struct super_block *sb, const struct lwnfs_options *o)
{
	struct lwnfs_sb *sbi = sb->s_fs_info;
	int i;

	mutex_lock(&sbi->lock);
	if (o->set & BIT(LWNFS_OPT_UID))
		sbi->opts.uid = o->uid;
	if (o->set & BIT(LWNFS_OPT_GID))
		sbi->opts.gid = o->gid;
	if (o->set & BIT(LWNFS_OPT_MODE))
		sbi->opts.mode = o->mode;
	if (o->set & BIT(LWNFS_OPT_MAX_COUNTERS))
		WRITE_ONCE(sbi->opts.max_counters, o->max_counters);
	mutex_unlock(&sbi->lock);

	/* Both callers hold s_umount, so two never interleave. */
	for (i = 0; i < LWNFS_NR_BUILTIN; i++)
		lwnfs_apply_inode(sbi->builtin[i], i == LWNFS_ROOT, o);
}

/*
 * simple_fill_super() makes the root.  The files it could make get no
 * i_private, and finding their dentries again to set it would take a
 * lookup that modules cannot call, so the counters are made by hand like
 * the subdirectory.
 */
static int lwnfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	static const struct tree_descr no_files[] = { { "" } };
	struct dentry *counter, *subdir, *subcounter;
	struct lwnfs_sb *sbi;
	int err;

	sbi = kzalloc_obj(*sbi, GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	mutex_init(&sbi->lock);
	sbi->opts.mode = LWNFS_DEFAULT_MODE;
	sbi->opts.max_counters = LWNFS_DEFAULT_MAX_COUNTERS;
	ida_init(&sbi->inos);
	sb->s_fs_info = sbi;

	err = simple_fill_super(sb, LWNFS_MAGIC, no_files);
	if (err)
		return err;
	sb->s_op = &lwnfs_super_ops;	/* simple_fill_super() set its own */
	sbi->builtin[LWNFS_ROOT] = d_inode(sb->s_root);
	sbi->builtin[LWNFS_ROOT]->i_op = &lwnfs_dir_iops;

	counter = lwnfs_make_builtin(sb->s_root, "counter", S_IFREG | 0644,
				     LWNFS_COUNTER, &lwnfs_counter);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	subdir = lwnfs_make_builtin(sb->s_root, "subdir", S_IFDIR | 0755,
				    LWNFS_SUBDIR, NULL);
	if (IS_ERR(subdir))
		return PTR_ERR(subdir);
	subcounter = lwnfs_make_builtin(subdir, "subcounter", S_IFREG | 0644,
					LWNFS_SUBCOUNTER, &lwnfs_subcounter);
	if (IS_ERR(subcounter))
		return PTR_ERR(subcounter);
	lwnfs_apply(sb, fc->fs_private);
	return 0;
}

static const struct fs_parameter_spec lwnfs_params[] = {
	fsparam_uid("uid", LWNFS_OPT_UID),
	fsparam_gid("gid", LWNFS_OPT_GID),
	fsparam_u32oct("mode", LWNFS_OPT_MODE),
	fsparam_u32("max_counters", LWNFS_OPT_MAX_COUNTERS),
	{}
};

/* Unknown options and bad values fail with EINVAL and a kernel message. */
static int lwnfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct lwnfs_options *o = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, lwnfs_params, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case LWNFS_OPT_UID:
		o->uid = lwnfs_result_uid(fc, &result);
		if (!uid_valid(o->uid))
			return invalfc(fc, "Bad value for '%s'", param->key);
		break;
	case LWNFS_OPT_GID:
		o->gid = lwnfs_result_gid(fc, &result);
		if (!gid_valid(o->gid))
			return invalfc(fc, "Bad value for '%s'", param->key);
		break;
	case LWNFS_OPT_MODE:
		if (result.uint_32 & ~S_IALLUGO)
			return invalfc(fc, "Bad value for '%s'", param->key);
		o->mode = result.uint_32;
		break;
	case LWNFS_OPT_MAX_COUNTERS:
		o->max_counters = result.uint_32;
		break;
	}
	o->set |= BIT(opt);
	return 0;
}

/*
 * Does @o give an option a value other than the one in force in @sbi?
 * The caller holds s_umount, which a remount holds to change them.
 */
static bool lwnfs_options_differ(const struct lwnfs_sb *sbi,
				 const struct lwnfs_options *o)
{
	return ((o->set & BIT(LWNFS_OPT_UID)) &&
		!uid_eq(o->uid, sbi->opts.uid)) ||
	       ((o->set & BIT(LWNFS_OPT_GID)) &&
		!gid_eq(o->gid, sbi->opts.gid)) ||
	       ((o->set & BIT(LWNFS_OPT_MODE)) && o->mode != sbi->opts.mode) ||
	       ((o->set & BIT(LWNFS_OPT_MAX_COUNTERS)) &&
		o->max_counters != sbi->opts.max_counters);
}

/*
 * Every mount shares one superblock, so a write is seen through them all.
 * The first mount makes it with its options (lwnfs_fill_super()).  A
 * mount of it again changes nothing: the mount can still fail after
 * ->get_tree (a security module's checks, a busy mount point), and what
 * it changed would stay.  So one that gives an option another value than
 * the one in force fails with EBUSY, and says to remount instead.
 */
static int lwnfs_get_tree(struct fs_context *fc)
{
	struct super_block *sb;
	int err = get_tree_single(fc, lwnfs_fill_super);

	if (err)
		return err;
	sb = fc->root->d_sb;
	if (!lwnfs_options_differ(sb->s_fs_info, fc->fs_private))
		return 0;
	/* fc_drop_locked(), which is not exported */
	dput(fc->root);
	fc->root = NULL;
	deactivate_locked_super(sb);
	errorfc(fc, "mounted with other options; change them with remount");
	return -EBUSY;
}

static int lwnfs_reconfigure(struct fs_context *fc)
{
	lwnfs_apply(fc->root->d_sb, fc->fs_private);
	return 0;
}

static void lwnfs_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations lwnfs_context_ops = {
	.parse_param	= lwnfs_parse_param,
	.get_tree	= lwnfs_get_tree,
	.reconfigure	= lwnfs_reconfigure,
	.free		= lwnfs_free_fc,
};

static int lwnfs_init_fs_context(struct fs_context *fc)
{
	struct lwnfs_options *o = kzalloc_obj(*o, GFP_KERNEL);

	if (!o)
		return -ENOMEM;
	fc->fs_private = o;
	fc->ops = &lwnfs_context_ops;
	return 0;
}

/* User-made entries die with the superblock; the built-in counters do not. */
static void lwnfs_kill_sb(struct super_block *sb)
{
	struct lwnfs_sb *sbi = sb->s_fs_info;

	kill_anon_super(sb);
	if (sbi)
		ida_destroy(&sbi->inos);
	kfree(sbi);
}

/* No FS_USERNS_MOUNT: mounting needs CAP_SYS_ADMIN in the initial namespace. */
static struct file_system_type lwnfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "lwnfs",
	.init_fs_context	= lwnfs_init_fs_context,
	.parameters		= lwnfs_params,
	.kill_sb		= lwnfs_kill_sb,
};

static int __init lwnfs_init(void)
{
	return register_filesystem(&lwnfs_fs_type);
}

static void __exit lwnfs_exit(void)
{
	unregister_filesystem(&lwnfs_fs_type);
}

module_init(lwnfs_init);
module_exit(lwnfs_exit);

MODULE_ALIAS_FS("lwnfs");
MODULE_DESCRIPTION("A filesystem of counter files, after LWN's 2002 libfs example");
MODULE_AUTHOR("The lwnfs developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(LWNFS_VERSION);
