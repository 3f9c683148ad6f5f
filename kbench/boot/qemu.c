// SPDX-License-Identifier: GPL-2.0
/*
 * Booting a kernel in QEMU (qemu.h): its command line from the machine
 * table, the guest's arguments on the kernel's, and its console read as
 * it comes until QEMU ends or the deadline passes.
 */
#include "qemu.h"
#include "cost-model.h"
#include "run-command.h"
#include "strbuf.h"
#include "warn.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * The guest's kernel arguments on every machine.  norandmaps: the same
 * addresses on every boot, so the same page-table work.
 */
#define BASE_APPEND "panic=-1 norandmaps"

/*
 * The guest's memory in MB: 128, and room for --program's files twice
 * (the archive and the files unpacked from it are both in memory until
 * the kernel frees the archive; the files stay), so that the rows find
 * about the memory they find without programs.
 */
static unsigned long guest_memory(const struct qemu_boot *o)
{
	uint64_t mb = 16, step = 16 << 20;
	unsigned long size = 128 + (unsigned long)((2 * o->program_bytes + step - 1) / step * mb);
	unsigned long align = o->m->mem_align;

	/* pseries takes whole 256 MB blocks only. */
	return align ? (size + align - 1) / align * align : size;
}

unsigned qemu_ns_per_insn(const char *clock, const struct kb_machine *m)
{
	return strcmp(clock, "kvm") ? 1u << m->icount_shift : 1;
}

/* The kernel's command line: its console, what kbench's guest is asked. */
static void kernel_cmdline(struct strbuf *sb, const struct qemu_boot *o)
{
	const struct kb_machine *m = o->m;
	int icount = strcmp(o->clock, "kvm") != 0;
	int smp = o->cpus > 1 && icount && m->smp_append;

	strbuf_addf(sb, "console=%s " BASE_APPEND "%s%s%s%s kbench_runs=%d%s%s%s%s",
		    m->console, *m->append ? " " : "", m->append, smp ? " " : "",
		    smp ? m->smp_append : "", o->runs, o->quick ? " kbench_quick=1" : "",
		    o->gcov ? " kbench_gcov=1" : "", o->only ? " kbench_only=" : "",
		    o->only ? o->only : "");
	/* A time stays an instruction count. */
	if (qemu_ns_per_insn(o->clock, m) != 1)
		strbuf_addf(sb, " kbench_ns_per_insn=%u", qemu_ns_per_insn(o->clock, m));
	if (o->append)
		strbuf_addf(sb, " %s", o->append);
}

/* The board and its CPUs. */
static void board_args(struct strvec *args, const struct qemu_boot *o)
{
	const struct kb_machine *m = o->m;

	for (const char *const *a = m->args; *a; a++)
		strvec_push(args, *a);
	/* Under icount QEMU runs the CPUs in turn in one thread: still deterministic. */
	if (o->cpus > 1) {
		strvec_push(args, "-smp");
		if (m->smp_sockets)
			strvec_pushf(args, "%d,sockets=%d", o->cpus, o->cpus);
		else
			strvec_pushf(args, "%d", o->cpus);
	}
}

/* The clock: KVM's, or an instruction count with nothing of the host's in it. */
static void clock_args(struct strvec *args, const struct qemu_boot *o)
{
	const struct kb_machine *m = o->m;

	if (!strcmp(o->clock, "kvm")) {
		strvec_pushl(args, "-enable-kvm", "-cpu", "host", NULL);
		return;
	}
	if (m->cpu)
		strvec_pushl(args, "-cpu", m->cpu, NULL);
	/* The RTC too counts guest time from a fixed date: no host time gets in. */
	strvec_push(args, "-icount");
	strvec_pushf(args, "shift=%u,sleep=off", m->icount_shift);
	strvec_pushl(args, "-rtc", "base=2000-01-01T00:00:00,clock=vm", NULL);
	/*
	 * Boards hand the kernel random bytes (virt's rng-seed and
	 * kaslr-seed): from a fixed seed they are the same on every
	 * boot, as the guest's random numbers then are.
	 */
	strvec_pushl(args, "-seed", "1", NULL);
}

/* The boot's command line; probe: without the kernel, stopped, QMP on standard input. */
static void qemu_args(struct strvec *args, const struct qemu_boot *o, int probe)
{
	strvec_pushl(args, o->qemu, "-nodefaults", "-no-user-config", "-display", "none",
		     "-serial", probe ? "none" : "stdio", "-no-reboot", "-m", NULL);
	strvec_pushf(args, "%lu", guest_memory(o));
	board_args(args, o);
	if (o->dtb)
		strvec_pushl(args, "-dtb", o->dtb, NULL);
	if (probe) {
		strvec_pushl(args, "-S", "-qmp", "stdio", NULL);
	} else {
		struct strbuf cmdline = STRBUF_INIT;

		kernel_cmdline(&cmdline, o);
		strvec_pushl(args, "-kernel", o->kernel, "-initrd", o->initrd, "-append",
			     cmdline.buf, NULL);
		strbuf_release(&cmdline);
	}
	clock_args(args, o);
	if (strcmp(o->clock, "kvm") && (o->model || o->branches))
		model_qemu_args(args, o->model, o->records, o->branches);
}

void qemu_lab_args(const struct qemu_boot *o, struct strvec *args, struct strbuf *cmdline,
		   unsigned long *memory)
{
	/* The lab's device type starts QEMU with its own defaults: kbench's board has none. */
	strvec_pushl(args, "-nodefaults", "-no-user-config", "-serial", "stdio", "-no-reboot",
		     NULL);
	board_args(args, o);
	clock_args(args, o);
	kernel_cmdline(cmdline, o);
	*memory = guest_memory(o);
}

static int qemu_found(const char *qemu)
{
	char *path;
	int found;

	if (strchr(qemu, '/'))
		return !access(qemu, X_OK);
	path = find_in_path(qemu);
	found = path != NULL;
	free(path);
	return found;
}

char *qemu_version_text(const char *qemu)
{
	static const char says[] = "QEMU emulator version ";
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *v;
	char *version = NULL;
	int status;

	/* One that is not there is the boot's to report, once. */
	if (!qemu_found(qemu))
		return NULL;
	strvec_pushl(&cp.args, qemu, "--version", NULL);
	cp.err = open("/dev/null", O_WRONLY | O_CLOEXEC);
	status = capture_command(&cp, &out);
	/* Its first line, as every QEMU prints it: not any "version" a stand-in says. */
	if (status_ok(status) && !strncmp(out.buf, says, sizeof(says) - 1)) {
		v = out.buf + sizeof(says) - 1;
		if (isdigit((unsigned char)*v))
			version = xstrndup(v, strspn(v, "0123456789."));
	}
	if (cp.err >= 0)
		close(cp.err);
	strbuf_release(&out);
	child_process_clear(&cp);
	return version;
}

int qemu_version(const char *qemu)
{
	char *v = qemu_version_text(qemu);
	int major = v ? atoi(v) : -1;

	free(v);
	return major;
}

double qemu_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Feed QEMU's output to c (or sb) until EOF or the deadline; 1 if it timed out. */
static int read_console(int fd, struct console *c, struct strbuf *sb, double deadline)
{
	char buf[8192];

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left = deadline - qemu_clock();
		ssize_t n;
		int r;

		if (left <= 0)
			return 1;
		r = poll(&pfd, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		if (c)
			console_feed(c, buf, (size_t)n);
		else
			strbuf_add(sb, buf, (size_t)n);
	}
}

/*
 * Keep QEMU on the host CPU kbench runs on (a child inherits the mask).
 * On another host CPU its main loop acts on the guest's timers while the
 * CPUs' thread runs, at moments the host decides; with several guest CPUs
 * that moves where the round-robin goes on to the next one, and two boots
 * of one image differed.  0 if the mask was changed, *saved the old one.
 */
static int pin_for_child(cpu_set_t *saved)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(*saved), saved) ||
	    !CPU_ISSET(cpu, saved))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

/*
 * On that one CPU QEMU's threads still take turns where the host's
 * scheduler says: a woken main loop preempts the CPUs' thread mid-slice,
 * runs a due guest timer itself, and the interrupt it raises ends the
 * running vCPU's turn early (riscv64 at 4 CPUs: 2 of 36 boots of one image
 * differed).  Under SCHED_FIFO a thread runs until it waits, so the main
 * loop runs only where the CPUs' thread lets it (61 of 61 alike).  Only
 * where the host allows it (root, or RLIMIT_RTPRIO) and bounds real-time
 * tasks (sched_rt_runtime_us not -1: a spinning guest cannot take the CPU
 * whole), and not with KBENCH_NO_FIFO set.
 */
static int fifo_bounded(void)
{
	struct strbuf sb = STRBUF_INIT;
	int bounded = strbuf_read_file(&sb, "/proc/sys/kernel/sched_rt_runtime_us", 0) >= 0 &&
		      sb.len && sb.buf[0] != '-';

	strbuf_release(&sb);
	return bounded;
}

/* 1 if the calling thread now runs SCHED_FIFO, *policy and *param its old ones. */
static int fifo_for_child(int *policy, struct sched_param *param)
{
	struct sched_param fifo = { .sched_priority = 1 };
	const char *no = getenv("KBENCH_NO_FIFO");

	if ((no && *no) || !fifo_bounded())
		return 0;
	*policy = sched_getscheduler(0);
	if (*policy < 0 || sched_getparam(0, param))
		return 0;
	return !sched_setscheduler(0, SCHED_FIFO, &fifo);
}

int qemu_fifo_possible(void)
{
	struct sched_param param;
	int policy;

	if (!fifo_for_child(&policy, &param))
		return 0;
	sched_setscheduler(0, policy, &param);
	return 1;
}

static int start_qemu(struct child_process *cp, const struct qemu_boot *o)
{
	cpu_set_t saved;
	struct sched_param param;
	int icount = strcmp(o->clock, "kvm") != 0, policy = 0;
	int pinned = icount && !pin_for_child(&saved);
	int fifo = pinned && o->cpus > 1 && fifo_for_child(&policy, &param);
	int r = start_command(cp);

	if (fifo)
		sched_setscheduler(0, policy, &param);
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	return r;
}

int qemu_boot(const struct qemu_boot *o, struct console *c, int *timed_out)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int fds[2], devnull, status;

	qemu_args(&cp.args, o, 0);
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || pipe2(fds, O_CLOEXEC)) {
		child_process_clear(&cp);
		return error_errno("cannot set up QEMU's console");
	}
	cp.in = devnull;
	cp.out = cp.err = fds[1];
	if (start_qemu(&cp, o)) {
		close(fds[0]);
		close(fds[1]);
		close(devnull);
		child_process_clear(&cp);
		return -1;
	}
	close(fds[1]);
	close(devnull);
	*timed_out = read_console(fds[0], c, NULL, qemu_clock() + o->timeout);
	if (*timed_out)
		kill(cp.pid, SIGKILL);
	close(fds[0]);
	console_flush(c);
	status = finish_command(&cp);
	child_process_clear(&cp);
	return status;
}

/*
 * QEMU answers at once when it cannot set the machine up; one that sets it
 * up and then hangs is not waited for longer than this.
 */
#define PROBE_SECONDS 60

/* What QEMU said last, without its name in front: its reason. */
static void last_words(const struct strbuf *said, const char *qemu, struct strbuf *why)
{
	const char *name = strrchr(qemu, '/') ? strrchr(qemu, '/') + 1 : qemu;
	const char *line = NULL;
	size_t len = 0;

	for (const char *p = said->buf; *p; ) {
		size_t n = strcspn(p, "\n");

		if (n) {
			line = p;
			len = n;
		}
		p += n + (p[n] == '\n');
	}
	if (!line) {
		strbuf_addstr(why, "it said nothing");
		return;
	}
	if (len > strlen(name) + 2 && !strncmp(line, name, strlen(name)) &&
	    !strncmp(line + strlen(name), ": ", 2)) {
		len -= strlen(name) + 2;
		line += strlen(name) + 2;
	}
	strbuf_add(why, line, len);
}

int qemu_probe(const struct qemu_boot *o, struct strbuf *why)
{
	static const char quit[] = "{\"execute\": \"qmp_capabilities\"}\n"
				   "{\"execute\": \"quit\"}\n";
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf said = STRBUF_INIT;
	int in[2], out[2], status, timed_out, devnull;

	qemu_args(&cp.args, o, 1);
	if (pipe2(in, O_CLOEXEC)) {
		child_process_clear(&cp);
		strbuf_addstr(why, "no pipe to it");
		return -1;
	}
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		child_process_clear(&cp);
		strbuf_addstr(why, "no pipe from it");
		return -1;
	}
	/* A pipe holds these few bytes before QEMU reads them. */
	if (write(in[1], quit, sizeof(quit) - 1) != (ssize_t)sizeof(quit) - 1)
		strbuf_addstr(why, "its QMP commands were not written");
	close(in[1]);
	/* QMP's replies are not read: only what QEMU says on its standard error. */
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	cp.in = in[0];
	cp.out = devnull;
	cp.err = out[1];
	status = why->len || devnull < 0 ? -1 : start_command(&cp);
	close(in[0]);
	close(out[1]);
	if (devnull >= 0)
		close(devnull);
	if (status) {
		close(out[0]);
		child_process_clear(&cp);
		if (!why->len)
			strbuf_addstr(why, "it could not be started");
		return -1;
	}
	timed_out = read_console(out[0], NULL, &said, qemu_clock() + PROBE_SECONDS);
	if (timed_out)
		kill(cp.pid, SIGKILL);
	close(out[0]);
	status = finish_command(&cp);
	child_process_clear(&cp);
	if (!timed_out && status_ok(status)) {
		strbuf_release(&said);
		return 0;
	}
	if (timed_out)
		strbuf_addf(why, "no answer in %d s", PROBE_SECONDS);
	else
		last_words(&said, o->qemu, why);
	strbuf_release(&said);
	return -1;
}
