// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs-fault - fail every allocation of every lwnfs system call, one at a time
 *
 * Usage: lwnfs-fault MODULE.ko MOUNTPOINT MOUNTPOINT2
 *
 * Needs a kernel with fail-nth (CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC), failslab and fail_page_alloc set to fail
 * sleeping allocations too, and lwnfs not loaded.  For each operation
 * (module load and unload, mount with and without options, a second
 * mount, remount, open, read, write, creat, mknod, mkdir, rename, rename
 * over a counter, unlink, rmdir, umount) it writes N = 1, 2, 3, ... to
 * /proc/thread-self/fail-nth just before the system call, so that the
 * Nth allocation the call makes fails, until the call completes without
 * reaching an Nth allocation three times in a row (KASAN's and kmemleak's
 * own allocations come and go, and may shift the call's by one).
 * After every injected failure the call must have failed with ENOMEM or
 * succeeded, and what it did must be all or nothing: the fixed tree
 * (counter, subdir/subcounter), the entries users made and the values of
 * the counters are checked each time.  A succeeding call is undone
 * before the next N.  The filesystem's slots (max_counters) are counted
 * after the calls that make and remove entries: none may have leaked.
 * Prints TAP, one test per operation with its faults injected, and
 * "N passed, N failed".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_COUNTERS	16
#define MAX_TRIES	100000	/* a call that keeps failing is a failure too */
#define DONE_RUNS	3	/* runs in a row that reach no Nth allocation */

static const char *module, *mnt, *mnt2;
static int fail_fd, module_fd;
static int test_nr, failed_nr;
static char problem[512];	/* the first thing found wrong in a test */
static unsigned int problem_at;	/* the allocation failed then, 0 for none */
static unsigned int injecting;	/* the allocation failed in this run, or 0 */
static unsigned int half_done;	/* calls that failed having done their first half */
static int opened = -1;		/* a file the call opened: closed after it */

/* What the tree must hold: the fixed tree and what this program made. */
struct entry {
	const char *name;	/* in the root directory */
	bool dir;
	bool present;
	long long value;	/* a counter's next value */
};

static long long counter_value, subcounter_value;
static struct entry entries[] = {
	{ .name = "a" }, { .name = "d", .dir = true },
	{ .name = "new" }, { .name = "newdir", .dir = true },
	{ .name = "r1" }, { .name = "r2" },
	{ .name = "u" }, { .name = "e", .dir = true },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_ENTRIES	ARRAY_SIZE(entries)

static void die(const char *what)
{
	printf("Bail out! lwnfs-fault: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Note the first problem of the current test; later ones follow from it. */
static void wrong(const char *fmt, ...)
{
	va_list ap;

	if (problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	problem_at = injecting;
}

static struct entry *entry(const char *name)
{
	size_t i;

	for (i = 0; i < NR_ENTRIES; i++)
		if (!strcmp(entries[i].name, name))
			return &entries[i];
	fprintf(stderr, "lwnfs-fault: %s is not in the list\n", name);
	exit(1);
}

static const char *at(const char *dir, const char *name)
{
	static char path[2][4096];
	static int which;

	which = !which;
	snprintf(path[which], sizeof(path[which]), "%s/%s", dir, name);
	return path[which];
}

/* Fault injection is set as faults.sh sets it: sleeping allocations fail too. */
static void setting_is(const char *path, const char *want)
{
	char text[16] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, text, sizeof(text) - 1) < 0)
		die(path);
	close(fd);
	text[strcspn(text, "\n")] = '\0';
	if (strcmp(text, want)) {
		printf("Bail out! lwnfs-fault: %s is %s, not %s\n", path, text, want);
		exit(1);
	}
}

/* fail-nth: the Nth allocation of this thread's next system call fails. */
static void fail_nth(unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	if (write(fail_fd, text, len) != len)
		die("write fail-nth");
}

/* After the call: was the failure injected?  Then clear what is left. */
static bool injected(void)
{
	char text[16] = "";
	ssize_t len = pread(fail_fd, text, sizeof(text) - 1, 0);

	if (len <= 0)
		die("read fail-nth");
	fail_nth(0);
	return atoi(text) == 0;
}

/* Take a value from a counter, as cat does. */
static long long take(const char *path, int *err)
{
	char text[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t len;

	*err = 0;
	if (fd < 0) {
		*err = errno;
		return 0;
	}
	len = pread(fd, text, sizeof(text) - 1, 0);
	if (len < 0)
		*err = errno;
	close(fd);
	return strtoll(text, NULL, 10);
}

static void set_value(const char *path, long long value)
{
	char text[32];
	int len = snprintf(text, sizeof(text), "%lld\n", value);
	int fd = open(path, O_WRONLY);

	if (fd < 0 || pwrite(fd, text, len, 0) != len)
		die(path);
	close(fd);
}

static void check_counter(const char *path, long long *expect)
{
	int err;
	long long value = take(path, &err);

	if (err)
		wrong("reading %s: %s", path, strerror(err));
	else if (value != *expect)
		wrong("%s holds %lld, not %lld", path, value, *expect);
	*expect = value + 1;
}

static void check_node(const char *path, bool dir, ino_t ino)
{
	struct stat st;

	if (stat(path, &st))
		wrong("stat %s: %s", path, strerror(errno));
	else if (!!S_ISDIR(st.st_mode) != dir || (ino && st.st_ino != ino))
		wrong("%s: mode %o, inode %lu", path, st.st_mode, (unsigned long)st.st_ino);
}

static bool mounted(const char *dir)
{
	return !access(at(dir, "counter"), F_OK);
}

/* The tree holds what it must and nothing else; every value as it was. */
static void check_tree(void)
{
	struct dirent *de;
	size_t i, want = 2, seen = 0;
	DIR *d;

	check_node(at(mnt, "counter"), false, 2);
	check_node(at(mnt, "subdir"), true, 3);
	check_node(at(mnt, "subdir/subcounter"), false, 4);
	check_counter(at(mnt, "counter"), &counter_value);
	check_counter(at(mnt, "subdir/subcounter"), &subcounter_value);
	for (i = 0; i < NR_ENTRIES; i++) {
		struct entry *e = &entries[i];
		const char *path = at(mnt, e->name);

		if (!e->present) {
			if (!access(path, F_OK))
				wrong("%s exists", path);
			continue;
		}
		want++;
		check_node(path, e->dir, 0);
		if (!e->dir)
			check_counter(path, &e->value);
	}
	d = opendir(mnt);
	if (!d)
		die(mnt);
	while ((de = readdir(d)))
		seen += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	if (seen != want)
		wrong("%s holds %zu entries, not %zu", mnt, seen, want);
}

static void make(const char *name, long long value)
{
	struct entry *e = entry(name);
	const char *path = at(mnt, name);

	if (e->dir ? mkdir(path, 0755) : close(creat(path, 0644)))
		die(path);
	e->present = true;
	e->value = 0;
	if (!e->dir && value) {
		set_value(path, value);
		e->value = value;
	}
}

static void unmake(const char *name)
{
	struct entry *e = entry(name);
	const char *path = at(mnt, name);

	if (e->dir ? rmdir(path) : unlink(path))
		die(path);
	e->present = false;
}

static void do_mount(const char *options)
{
	if (mount("lwnfs", mnt, "lwnfs", 0, options))
		die("mount");
}

/* What users made dies with the superblock. */
static void forget_entries(void)
{
	size_t i;

	for (i = 0; i < NR_ENTRIES; i++)
		entries[i].present = false;
}

static void do_umount(void)
{
	if (umount(mnt))
		die("umount");
	forget_entries();
}

static void owner_is(const char *dir, uid_t uid, mode_t mode)
{
	struct stat st;

	if (stat(dir, &st))
		wrong("stat %s: %s", dir, strerror(errno));
	else if (st.st_uid != uid || (st.st_mode & 07777) != mode)
		wrong("%s: owner %u mode %o, not %u %o", dir, st.st_uid,
		      st.st_mode & 07777, uid, mode);
}

static bool loaded(void)
{
	return !access("/sys/module/lwnfs", F_OK);
}

/*
 * One operation: call() is the system call under test and returns 0 or
 * an errno; after() checks what it left (err: what it returned) and
 * undoes a success.  Both run with nothing injected but the call itself.
 */
struct op {
	const char *name;
	int (*call)(void);
	void (*after)(int err);
	bool allocates;		/* false only for read and write */
};

/* --- the operations ----------------------------------------------------- */

static int counter_fd;	/* counter "a", open for read and write */

static int ret(long r)
{
	return r < 0 ? errno : 0;
}

static int load_call(void)
{
	return ret(syscall(SYS_finit_module, module_fd, "", 0));
}

static void load_after(int err)
{
	if (!err && !loaded())
		wrong("finit_module succeeded, /sys/module/lwnfs is missing");
	if (err && loaded())
		wrong("finit_module failed, lwnfs is loaded");
	if (!err && syscall(SYS_delete_module, "lwnfs", O_NONBLOCK))
		die("delete_module");
}

static int unload_call(void)
{
	return ret(syscall(SYS_delete_module, "lwnfs", O_NONBLOCK));
}

static void unload_after(int err)
{
	if (!err && loaded())
		wrong("delete_module succeeded, /sys/module/lwnfs is there");
	if (err && !loaded())
		wrong("delete_module failed, lwnfs is gone");
	if (!err && syscall(SYS_finit_module, module_fd, "", 0))
		die("finit_module");
}

/* A first mount: a new superblock, owned as its options say, or none. */
static void first_mount_after(int err, uid_t uid, mode_t mode)
{
	if (err) {
		if (mounted(mnt))
			wrong("mount failed, %s is mounted", mnt);
		return;
	}
	owner_is(mnt, uid, mode);
	check_tree();
	do_umount();
}

static int mount_call(void)
{
	return ret(mount("lwnfs", mnt, "lwnfs", 0, NULL));
}

static void mount_after(int err)
{
	first_mount_after(err, 0, 0755);
}

static int mount_options_call(void)
{
	return ret(mount("lwnfs", mnt, "lwnfs", 0, "uid=1000,gid=1000,mode=0700,max_counters=3"));
}

static void mount_options_after(int err)
{
	first_mount_after(err, 1000, 0700);
}

/*
 * A second mount shares the superblock and applies its options to it.
 * The VFS allocates the new mount after the filesystem's get_tree, so a
 * failure there leaves the options applied: either owner is accepted.
 */
static int mount_again_call(void)
{
	return ret(mount("lwnfs", mnt2, "lwnfs", 0, "uid=1001"));
}

static void mount_again_after(int err)
{
	struct stat st;

	if (err && mounted(mnt2))
		wrong("mount failed, %s is mounted", mnt2);
	if (!err && !mounted(mnt2))
		wrong("mount succeeded, %s is not mounted", mnt2);
	if (stat(mnt, &st))
		die(mnt);
	if (st.st_uid != 0 && st.st_uid != 1001)
		wrong("%s: owner %u", mnt, st.st_uid);
	if (!err && st.st_uid != 1001)
		wrong("the second mount's uid=1001 did not reach %s", mnt);
	check_tree();
	if (!err && umount(mnt2))
		die("umount");
	if (mount(NULL, mnt, NULL, MS_REMOUNT, "uid=0"))
		die("remount");
}

static int remount_call(void)
{
	return ret(mount(NULL, mnt, NULL, MS_REMOUNT, "uid=1002,mode=0750"));
}

static void remount_after(int err)
{
	owner_is(mnt, err ? 0 : 1002, err ? 0755 : 0750);
	check_tree();
	if (!err && mount(NULL, mnt, NULL, MS_REMOUNT, "uid=0,mode=0755"))
		die("remount");
}

/* The file stays open until fail-nth is read: close() allocates too. */
static int open_call(void)
{
	opened = open(at(mnt, "a"), O_RDWR);
	return ret(opened);
}

static void open_after(int err)
{
	(void)err;
	check_tree();
}

static int read_call(void)
{
	char text[64] = "";
	ssize_t len = pread(counter_fd, text, sizeof(text) - 1, 0);

	if (len < 0)
		return errno;
	if (strtoll(text, NULL, 10) != entry("a")->value)
		wrong("read %s from a, not %lld", text, entry("a")->value);
	entry("a")->value++;
	return 0;
}

static void read_after(int err)
{
	(void)err;
	check_tree();
}

static int write_call(void)
{
	return pwrite(counter_fd, "12345\n", 6, 0) == 6 ? 0 : errno;
}

static void write_after(int err)
{
	if (!err)
		entry("a")->value = 12345;
	check_tree();
	set_value(at(mnt, "a"), 7);
	entry("a")->value = 7;
}

static int creat_call(void)
{
	opened = creat(at(mnt, "new"), 0644);
	return ret(opened);
}

/*
 * creat() is a create, then an open.  The VFS allocates the file before
 * the create, so when the open half fails it is lwnfs_open()'s
 * allocation, and the counter stays made, as on any filesystem whose
 * ->open can fail: then it must be a whole counter, holding 0.
 */
static void creat_after(int err)
{
	struct entry *e = entry("new");

	e->present = !err || !access(at(mnt, "new"), F_OK);
	e->value = 0;
	half_done += err && e->present;
	check_tree();
	if (e->present)
		unmake("new");
}

/* mknod() of a regular file is the create alone: all or nothing. */
static int mknod_call(void)
{
	return ret(mknod(at(mnt, "new"), S_IFREG | 0644, 0));
}

static void mknod_after(int err)
{
	entry("new")->present = !err;
	entry("new")->value = 0;
	check_tree();
	if (!err)
		unmake("new");
}

static int mkdir_call(void)
{
	return ret(mkdir(at(mnt, "newdir"), 0755));
}

static void mkdir_after(int err)
{
	entry("newdir")->present = !err;
	check_tree();
	if (!err)
		unmake("newdir");
}

static int rename_call(void)
{
	return ret(rename(at(mnt, "r1"), at(mnt, "r2")));
}

/* r1 to r2, which does not exist: moved with its value, or not at all. */
static void rename_after(int err)
{
	if (!err) {
		entry("r1")->present = false;
		entry("r2")->present = true;
		entry("r2")->value = entry("r1")->value;
	}
	check_tree();
	if (!err) {
		unmake("r2");
		make("r1", 5);
	}
}

/* r1 over r2: r2 holds r1's value and r1 is gone, or nothing changed. */
static void rename_over_after(int err)
{
	if (!err) {
		entry("r1")->present = false;
		entry("r2")->value = entry("r1")->value;
	}
	check_tree();
	if (!err) {
		make("r1", 5);
		set_value(at(mnt, "r2"), 9);
		entry("r2")->value = 9;
	}
}

static int unlink_call(void)
{
	return ret(unlink(at(mnt, "u")));
}

static void unlink_after(int err)
{
	entry("u")->present = !!err;
	check_tree();
	if (!err)
		make("u", 3);
}

static int rmdir_call(void)
{
	return ret(rmdir(at(mnt, "e")));
}

static void rmdir_after(int err)
{
	entry("e")->present = !!err;
	check_tree();
	if (!err)
		make("e", 0);
}

static int umount_call(void)
{
	return ret(umount(mnt));
}

/* The superblock and what users made go; the counters' values stay. */
static void umount_after(int err)
{
	if (err) {
		check_tree();
		return;
	}
	if (mounted(mnt))
		wrong("umount succeeded, %s is still mounted", mnt);
	forget_entries();
	do_mount(NULL);
	make("a", 7);
	make("d", 0);
	check_tree();
}

/* --- the driver --------------------------------------------------------- */

/*
 * Fail the 1st, 2nd, ... allocation of op's call, until DONE_RUNS runs in
 * a row reach no Nth allocation (and so succeed).
 */
static void run(const struct op *op)
{
	unsigned int n, injected_nr = 0, succeeded = 0, done = 0;
	bool was_injected;
	int err;

	problem[0] = '\0';
	half_done = 0;
	for (n = 1; n <= MAX_TRIES && done < DONE_RUNS && !problem[0]; n++) {
		fail_nth(n);
		err = op->call();
		was_injected = injected();
		if (opened >= 0) {
			close(opened);
			opened = -1;
		}
		injecting = was_injected ? n : 0;
		if (!was_injected) {
			done++;
			if (err)
				wrong("%s failed with nothing injected: %s", op->name,
				      strerror(err));
		} else {
			done = 0;
			injected_nr++;
			succeeded += !err;
			if (err && err != ENOMEM)
				wrong("%s returned %s, not ENOMEM", op->name, strerror(err));
		}
		op->after(err);
	}
	if (n > MAX_TRIES)
		wrong("still injecting after %u allocations", MAX_TRIES);
	if (!injected_nr && op->allocates)
		wrong("no allocation was failed: is fault injection on?");
	test_nr++;
	if (problem[0]) {
		char at_n[32] = " (nothing injected)";

		if (problem_at)
			snprintf(at_n, sizeof(at_n), " (allocation %u failed)", problem_at);
		failed_nr++;
		printf("not ok %d %s: %s%s\n", test_nr, op->name, problem, at_n);
	} else if (!injected_nr) {
		printf("ok %d %s: no allocation\n", test_nr, op->name);
	} else {
		char half[64] = "";

		if (half_done)
			snprintf(half, sizeof(half),
				 " (%u made the counter, then failed to open it)", half_done);
		printf("ok %d %s: %u allocations, each failed once: %u ENOMEM%s, %u succeeded\n",
		       test_nr, op->name, injected_nr, injected_nr - succeeded, half, succeeded);
	}
	fflush(stdout);
}

/* Slots: every create that failed gave its slot back. */
static void count_slots(void)
{
	size_t i, made = 0, free_slots = 0;
	char name[32];

	for (i = 0; i < NR_ENTRIES; i++)
		made += entries[i].present;
	problem[0] = '\0';
	for (;;) {
		snprintf(name, sizeof(name), "slot%zu", free_slots);
		if (mkdir(at(mnt, name), 0755))
			break;
		free_slots++;
	}
	if (errno != ENOSPC)
		wrong("mkdir %s: %s, not ENOSPC", name, strerror(errno));
	if (made + free_slots != MAX_COUNTERS)
		wrong("%zu made and %zu free of max_counters=%d: a slot leaked", made, free_slots,
		      MAX_COUNTERS);
	for (i = 0; i < free_slots; i++) {
		snprintf(name, sizeof(name), "slot%zu", i);
		if (rmdir(at(mnt, name)))
			die(name);
	}
	test_nr++;
	failed_nr += !!problem[0];
	printf("%s %d max_counters=%d: %zu made, %zu free%s%s\n", problem[0] ? "not ok" : "ok",
	       test_nr, MAX_COUNTERS, made, free_slots, problem[0] ? ": " : "", problem);
}

int main(int argc, char **argv)
{
	static const struct op load = { "module load", load_call, load_after, true };
	static const struct op unload = { "module unload", unload_call, unload_after, true };
	static const struct op ops_unmounted[] = {
		{ "mount", mount_call, mount_after, true },
		{ "mount with options", mount_options_call, mount_options_after, true },
	};
	static const struct op ops_mounted[] = {
		{ "second mount", mount_again_call, mount_again_after, true },
		{ "remount", remount_call, remount_after, true },
		{ "open", open_call, open_after, true },
		{ "read", read_call, read_after, false },
		{ "write", write_call, write_after, false },
		{ "creat", creat_call, creat_after, true },
		{ "mknod", mknod_call, mknod_after, true },
		{ "mkdir", mkdir_call, mkdir_after, true },
		{ "rename", rename_call, rename_after, true },
	};
	static const struct op rename_over = {
		"rename over", rename_call, rename_over_after, true
	};
	static const struct op ops_removing[] = {
		{ "unlink", unlink_call, unlink_after, true },
		{ "rmdir", rmdir_call, rmdir_after, true },
	};
	static const struct op umount_op = { "umount", umount_call, umount_after, true };
	size_t i;
	char options[64];

	if (argc != 4) {
		fprintf(stderr, "usage: lwnfs-fault MODULE.ko MOUNTPOINT MOUNTPOINT2\n");
		return 2;
	}
	module = argv[1];
	mnt = argv[2];
	mnt2 = argv[3];
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* No page fault of ours between fail-nth and the call takes the Nth. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall");
	setting_is("/sys/kernel/debug/failslab/ignore-gfp-wait", "N");
	setting_is("/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N");
	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_fd < 0)
		die("/proc/thread-self/fail-nth");
	module_fd = open(module, O_RDONLY);
	if (module_fd < 0)
		die(module);
	if (loaded())
		die("lwnfs is loaded already");
	/* module load and unload, the lists, rename over, slots, umount */
	printf("1..%zu\n", 2 + ARRAY_SIZE(ops_unmounted) + ARRAY_SIZE(ops_mounted) + 1 +
	       ARRAY_SIZE(ops_removing) + 1 + 1);

	run(&load);
	if (syscall(SYS_finit_module, module_fd, "", 0))
		die("finit_module");
	for (i = 0; i < ARRAY_SIZE(ops_unmounted); i++)
		run(&ops_unmounted[i]);

	snprintf(options, sizeof(options), "max_counters=%d", MAX_COUNTERS);
	do_mount(options);
	make("a", 7);
	make("d", 0);
	make("r1", 5);
	counter_fd = open(at(mnt, "a"), O_RDWR);
	if (counter_fd < 0)
		die("open a");
	/* the first check reads the fixed counters' values */
	counter_value = take(at(mnt, "counter"), &(int){ 0 }) + 1;
	subcounter_value = take(at(mnt, "subdir/subcounter"), &(int){ 0 }) + 1;
	for (i = 0; i < ARRAY_SIZE(ops_mounted); i++)
		run(&ops_mounted[i]);
	close(counter_fd);
	make("r2", 9);
	run(&rename_over);
	unmake("r1");
	unmake("r2");
	make("u", 3);
	make("e", 0);
	for (i = 0; i < ARRAY_SIZE(ops_removing); i++)
		run(&ops_removing[i]);
	count_slots();
	run(&umount_op);
	do_umount();
	run(&unload);
	if (syscall(SYS_delete_module, "lwnfs", O_NONBLOCK))
		die("delete_module");

	printf("%d passed, %d failed\n", test_nr - failed_nr, failed_nr);
	return failed_nr ? 1 : 0;
}
