// SPDX-License-Identifier: GPL-2.0
/*
 * kbench-guest: the /init of kbench's initramfs.  It prepares what the
 * benchmarks need (proc, a tmpfs, device nodes, loopback), reads the
 * host's wishes from /proc/cmdline, runs /kbench-workload, the benchmarks
 * and /kbench-post, reports on the console in the protocol of protocol.h
 * and ends QEMU.  Each benchmark runs in a child of its own, so one that
 * crashes is reported and the others still run (and init never dies,
 * which would panic the kernel).
 */
#include "bench.h"
#include "copies.h"
#include "protocol.h"
#include "model/marker.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif
#include <sys/klog.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* Samples per row: one console line holds them all. */
#define MAX_RUNS 99
/* Guest seconds one sample may take before it counts as hung. */
#define SAMPLE_LIMIT 60

struct opts {
	int runs;
	int quick;
	int gcov;
	int settle;	/* seconds of idle before each benchmark (settle()) */
	char only[1100];	/* ",a,b," or "" for all */
};

static const struct bench *const tables[] = { kb_proc, kb_ipc, kb_ctx, kb_fsvm, kb_smp,
					      kb_ftq, kb_build, kb_mem, kb_programs };

static void console(void)
{
	int fd;

	if (fcntl(1, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static void node(const char *path, int major, int minor)
{
	if (access(path, F_OK))
		mknod(path, S_IFCHR | 0666, makedev(major, minor));
}

static void loopback_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (!ioctl(s, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(s, SIOCSIFFLAGS, &ifr))
			kb_line("kbench-guest: cannot bring up lo: %s", strerror(errno));
	}
	close(s);
}

static void setup(void)
{
	mkdir("/dev", 0755);
	mkdir("/proc", 0555);
	mkdir(KB_TMP, 01777);
	node("/dev/console", 5, 1);
	console();
	node("/dev/null", 1, 3);
	node("/dev/zero", 1, 5);
	if (mount("proc", "/proc", "proc", 0, NULL) && errno != EBUSY)
		kb_line("kbench-guest: mount /proc: %s", strerror(errno));
	if (mount("tmpfs", KB_TMP, "tmpfs", 0, NULL) && errno != EBUSY)
		kb_line("kbench-guest: mount tmpfs on " KB_TMP ": %s", strerror(errno));
	loopback_up();
	/*
	 * The kernel writes its messages straight to the serial port, into
	 * the middle of our lines if it must: from now on only warnings and
	 * worse (an oops, a panic) reach the console.
	 */
	klogctl(8, NULL, 5);	/* SYSLOG_ACTION_CONSOLE_LEVEL */
}

/* The value of "key=" among the blank-separated words of /proc/cmdline. */
static int cmdline_value(const char *cmdline, const char *key, char *val, size_t size)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t len = strcspn(p + klen + 1, " \n");

			if (len >= size)
				len = size - 1;
			memcpy(val, p + klen + 1, len);
			val[len] = '\0';
			return 1;
		}
		p += klen;
	}
	return 0;
}

static void read_options(struct opts *o)
{
	char cmdline[4096], val[1024];
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);

	o->runs = KB_DEFAULT_RUNS;
	o->quick = 0;
	o->gcov = 0;
	o->settle = 1;
	o->only[0] = '\0';
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	cmdline[n] = '\0';
	if (cmdline_value(cmdline, "kbench_runs", val, sizeof(val)))
		o->runs = atoi(val);
	if (o->runs < 1 || o->runs > MAX_RUNS)
		o->runs = KB_DEFAULT_RUNS;
	if (cmdline_value(cmdline, "kbench_quick", val, sizeof(val)))
		o->quick = atoi(val) != 0;
	if (cmdline_value(cmdline, "kbench_gcov", val, sizeof(val)))
		o->gcov = atoi(val) != 0;
	if (cmdline_value(cmdline, "kbench_settle", val, sizeof(val)))
		o->settle = atoi(val) < 0 ? 0 : atoi(val);
	if (cmdline_value(cmdline, "kbench_ns_per_insn", val, sizeof(val)) && atoi(val) > 0)
		kb_ns_per_insn = atoi(val);
	if (cmdline_value(cmdline, "kbench_only", val, sizeof(val)))
		snprintf(o->only, sizeof(o->only), ",%s,", val);
}

static int selected(const struct opts *o, const struct bench *b)
{
	char name[128], group[128];

	/* No compiler in the initramfs (no --build-cc): no build row, as asked. */
	if (!strcmp(b->name, KB_BUILD_ROW) && !kb_build_ready())
		return 0;
	/* Programs were asked for by name: kbench_only chooses among the tables' rows. */
	if (!o->only[0] || !strcmp(b->group, KB_PROGRAM_GROUP))
		return 1;
	snprintf(name, sizeof(name), ",%s,", b->name);
	snprintf(group, sizeof(group), ",%s,", b->group);
	return strstr(o->only, name) || strstr(o->only, group);
}

/* A name in kbench_only that is neither a benchmark nor a group fails. */
static int check_only(const struct opts *o)
{
	char only[sizeof(o->only)], *save, *name;
	int bad = 0;

	memcpy(only, o->only, sizeof(only));
	for (name = strtok_r(only, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int found = !strcmp(name, KB_PROGRAM_GROUP);

		for (size_t t = 0; t < sizeof(tables) / sizeof(*tables) && !found; t++)
			for (const struct bench *b = tables[t]; b->name && !found; b++)
				found = !strcmp(name, b->name) || !strcmp(name, b->group);
		if (!found) {
			kb_line(KB_TAG_FAIL " %s no such benchmark or group", name);
			bad++;
		}
	}
	return bad;
}

static void print_version(void)
{
	char buf[512];
	int fd = open("/proc/version", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		kb_line(KB_TAG_KERNEL " unknown (no /proc/version)");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	kb_line(KB_TAG_KERNEL " %s", buf);
}

/* In the benchmark's own process: every run, then one ROW line. */
static void run_bench(const struct bench *b, const struct opts *o)
{
	long iters = !o->quick ? b->iters : b->quick ? b->quick : (b->iters + 9) / 10;
	char line[4096], ops[4096];
	size_t len, olen;
	double v;

	len = (size_t)snprintf(line, sizeof(line), "%s %s %s %s ", KB_TAG_ROW,
			       b->name, b->unit, b->group);
	olen = (size_t)snprintf(ops, sizeof(ops), "%s %s ", KB_TAG_OPS, b->name);
	kb_mark_row();
	/* A short untimed run first: caches, the page cache, lazy binding. */
	alarm(SAMPLE_LIMIT);
	if (b->run(b, (iters + 9) / 10, &v))
		goto fail;
	kb_sample_marking = 1;
	for (int r = 0; r < o->runs; r++) {
		alarm(SAMPLE_LIMIT);
		if (b->run(b, iters, &v))
			goto fail;
		if (len < sizeof(line) - 32)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%.6g",
						r ? "," : "", v);
		if (olen < sizeof(ops) - 32)
			olen += (size_t)snprintf(ops + olen, sizeof(ops) - olen, "%s%.17g",
						 r ? "," : "", kb_sample_ops);
	}
	kb_sample_marking = 0;
	alarm(0);
	kb_line("%s", ops);
	kb_line("%s", line);
	_exit(0);
fail:
	kb_line(KB_TAG_FAIL " %s %s", b->name, kb_fail_message());
	_exit(1);
}

/* TCP sockets in TIME_WAIT (/proc/net/sockstat), 0 when there is no TCP line. */
static long time_wait_sockets(void)
{
	char buf[1024], *p;
	int fd = open("/proc/net/sockstat", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "TCP:");
	p = p ? strstr(p, " tw ") : NULL;
	return p ? strtol(p + 4, NULL, 10) : 0;
}

/* Idle until the next whole second of the guest clock, at least secs away. */
static void idle_to_second(int secs)
{
	struct timespec t;

	if (clock_gettime(CLOCK_MONOTONIC, &t))
		return;
	t.tv_sec += secs + (t.tv_nsec > 0);
	t.tv_nsec = 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

/*
 * Before each benchmark: idle until what earlier ones left is done, and
 * start at one phase of the timer tick (issue 24).  Two kernels with the
 * same code reach each row after different instruction counts (their
 * banners, user@host and the build time, differ in length), and their
 * random pools differ (seeded with that identity).  Without the pause the
 * ticks, RCU grace periods, TIME_WAIT sockets' timers and the frees they
 * bring fall elsewhere in the next row and leave its allocator otherwise:
 * on 6.1's SLOB prot_fault moved by a quarter.  So: a whole second of
 * idle, more while TCP sockets wait in TIME_WAIT (60 s after the TCP
 * rows), and wake on the tick after a whole second.  Under icount with
 * sleep=off idle costs no host time, only the ticks.
 */
#define SETTLE_MAX 120	/* seconds: a TIME_WAIT lasts 60 */
static void settle(int secs)
{
	if (secs <= 0)
		return;
	idle_to_second(secs);
	for (int waited = secs; waited < SETTLE_MAX && time_wait_sockets() > 0; waited++)
		idle_to_second(1);
}

/* 1 if a row was printed, 0 if the benchmark failed. */
static int spawn_bench(const struct bench *b, const struct opts *o)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		kb_line(KB_TAG_FAIL " %s fork: %s", b->name, strerror(errno));
		return 0;
	}
	if (!pid)
		run_bench(b, o);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		kb_line(KB_TAG_FAIL " %s %s (signal %d)", b->name,
			sig == SIGALRM ? "timed out" : strsignal(sig), sig);
		return 0;
	}
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/* Run path if it exists; its exit status, or -1 if it was not there. */
static int run_program(const char *path)
{
	char *const argv[] = { (char *)path, NULL };
	pid_t pid;
	int status;

	if (access(path, X_OK))
		return -1;
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		execv(path, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Orphans of the benchmarks are ours to reap, as init. */
static void reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static __attribute__((noreturn)) void quit(int ok)
{
	sync();
#if defined(__x86_64__) || defined(__i386__)
	/*
	 * QEMU's isa-debug-exit; other machines reboot.  It ends QEMU at
	 * once: first the UART must have sent the last lines (QEMU 10's,
	 * with a second CPU taking its interrupts, had not).
	 */
	tcdrain(1);
	if (ioperm(KB_EXIT_PORT, 1, 1) == 0)
		outb(ok ? KB_EXIT_OK : KB_EXIT_FAIL, KB_EXIT_PORT);
#else
	(void)ok;
#endif
	/*
	 * A reboot, not a power-off: kbench runs QEMU with -no-reboot, which
	 * ends it on every machine's reset (PSCI, SBI, RTAS, the Versatile's
	 * and Malta's reset registers).  Not every board can power off: the
	 * Versatile/PB (armel) and Malta (mipsel, mips64el) kernels have no
	 * power-off, so there the kernel halted and QEMU ran on to the timeout.
	 */
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

/* The CPUs the smp rows run on: the host can check it booted as many as it asked. */
static void begin_line(const struct opts *o)
{
	int cpu[KB_MAX_COPIES];

	kb_line(KB_TAG_BEGIN " v=%d runs=%d ns_per_insn=%g cpus=%d", KB_PROTO_VERSION, o->runs,
		kb_ns_per_insn, kb_cpus(cpu, KB_MAX_COPIES));
}

/* Every row selected, each after settling; how many failed (rows counted in *rows). */
static int run_tables(const struct opts *o, int *rows)
{
	int failed = 0;

	for (size_t t = 0; t < sizeof(tables) / sizeof(*tables); t++) {
		for (const struct bench *b = tables[t]; b->name; b++) {
			if (!selected(o, b))
				continue;
			settle(o->settle);
			if (spawn_bench(b, o))
				(*rows)++;
			else
				failed++;
			reap();
		}
	}
	return failed;
}

/*
 * kbench-guest --kbench-rows=a,b: the rows named, as a program on any
 * Linux (the tests run it on the host): no setup and no QEMU to end,
 * two quick runs each, the smp rows' files in the current directory.
 */
#define ROWS_ARG "--kbench-rows="
static int native_rows(const char *list)
{
	struct opts o = { .runs = 2, .quick = 1 };
	int rows = 0, failed;

	kb_tmp = ".";
	snprintf(o.only, sizeof(o.only), ",%s,", list);
	begin_line(&o);
	failed = check_only(&o) + run_tables(&o, &rows);
	kb_line(KB_TAG_END " %s rows=%d", failed || !rows ? "fail" : "ok", rows);
	return failed || !rows;
}

int main(int argc, char **argv)
{
	struct opts o;
	int rows = 0, failed = 0, status;

	/* What the fork+exec rows exec: return at once. */
	if (argc > 1 && !strcmp(argv[1], "--kbench-hello"))
		return 0;
	if (argc > 1 && !strncmp(argv[1], ROWS_ARG, strlen(ROWS_ARG)))
		return native_rows(argv[1] + strlen(ROWS_ARG));
	setup();
	read_options(&o);
	begin_line(&o);
	print_version();
	kb_programs_load();
	failed = check_only(&o);
	status = run_program(KB_WORKLOAD_PATH);
	if (status >= 0)
		kb_line(KB_TAG_WORKLOAD " exit=%d", status);
	failed += run_tables(&o, &rows);
	run_program(KB_POST_PATH);
	if (o.gcov)
		kb_line(KB_TAG_GCOV " files=%d", kb_gcov_dump());
	kb_line(KB_TAG_END " %s rows=%d", failed || !rows ? "fail" : "ok", rows);
	quit(!failed && rows);
}
