// SPDX-License-Identifier: GPL-2.0
/*
 * kbench run: build the initramfs, boot the kernel in QEMU with its
 * console on a pipe, read the results as they come, and write the result
 * file only when the guest ended cleanly with every benchmark done.
 */
#include "cmd.h"
#include "atomic-file.h"
#include "initramfs.h"
#include "job.h"
#include "machine.h"
#include "cost-model.h"
#include "console.h"
#include "qemu.h"
#include "qemu-choice.h"
#include "fileio.h"
#include "program.h"
#include "build-row.h"
#include "branches.h"
#include "elf-info.h"
#include "protocol.h"
#include "result.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT 900
/*
 * One branch sample in this many taken branches into the kernel: a prime,
 * as perf's periods are, so that no loop of the kernel's beats with it.
 */
#define KB_RECORD_PERIOD 10007

struct run_opts {
	const char *output, *only, *append, *clock, *qemu, *console_log;
	char *qemu_path, *qemu_version;	/* the QEMU that runs the boots, and what it says */
	const char *kernel, *arch;
	const struct kb_machine *m;	/* --arch's, or the image's */
	const char *dtb;	/* --dtb, or the board's beside the image */
	char dtb_buf[PATH_MAX];
	const char *gcov_out, *gcov_objtree;	/* profile collection */
	const char *model;	/* --model=cycles[=PROFILE]: PROFILE or "" */
	struct kb_model md;	/* set up by check_inputs */
	const char *records;	/* the model's output, a temp file */
	/* --record-branches=FILE: the plugin writes into br.out, a temp file */
	const char *record_path, *record_format, *boot_append;
	unsigned long long record_period;
	struct kb_branch_args br;
	struct kb_branches rec;
	int runs, quick, timeout;
	int lab;		/* kbench lava job: QEMU is the lab's */
	int cpus[KB_MAX_CPUS], nr_cpus;	/* --cpus: the guest's CPUs, a boot each */
	struct strbuf logs;		/* --console: every boot's console */
	struct initramfs_opts init;
	struct kb_programs programs;	/* --program */
	const char *build_cc_opt;	/* --build-cc */
	struct kb_build_cc build_cc;
};

static int parse_int(const char *v, const char *name, int min, int max, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < min || n > max)
		return usage_error("%s takes a number from %d to %d, not '%s'", name, min, max, v);
	*out = (int)n;
	return 0;
}

static int parse_period(const char *v, unsigned long long *out)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || !n || n > 1000000000)
		return usage_error("--record-period takes a number from 1 to 1000000000, not '%s'",
				   v);
	*out = n;
	return 0;
}

/* --cpus=N or N,M,...: each 1..64, none twice; booted in the order given. */
static int parse_cpus(struct run_opts *o, const char *v)
{
	const char *p = v;

	o->nr_cpus = 0;
	while (o->nr_cpus < KB_MAX_CPUS) {
		char *end;
		long n = strtol(p, &end, 10);

		/* Digits only: strtol would take blanks and signs. */
		if (!isdigit((unsigned char)*p) || (*end && *end != ',') || n < 1 ||
		    n > KB_MAX_CPUS)
			break;
		for (int k = 0; k < o->nr_cpus; k++)
			if (o->cpus[k] == n)
				return usage_error("--cpus names %ld twice in '%s'", n, v);
		o->cpus[o->nr_cpus++] = (int)n;
		if (!*end)
			return 0;
		p = end + 1;
	}
	return usage_error("--cpus takes CPU counts from 1 to %d (N or N,M,...), not '%s'",
			   KB_MAX_CPUS, v);
}

static int valid_only(const char *v)
{
	return *v && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_.,-") == strlen(v);
}

static int parse_run_option(struct run_opts *o, int argc, char **argv, int *i)
{
	const char *v;

	if ((v = opt_arg(argc, argv, i, "-o")) || (v = opt_arg(argc, argv, i, "--output")))
		o->output = v;
	else if ((v = opt_arg(argc, argv, i, "--runs")))
		return parse_int(v, "--runs", 1, 99, &o->runs);
	else if (!strcmp(argv[*i], "--quick"))
		o->quick = 1;
	else if ((v = opt_arg(argc, argv, i, "--cpus")))
		return parse_cpus(o, v);
	else if ((v = opt_arg(argc, argv, i, "--only"))) {
		if (!valid_only(v))
			return usage_error("--only takes benchmark or group names, not '%s'", v);
		o->only = v;
	} else if ((v = opt_arg(argc, argv, i, "--append")))
		o->append = v;
	else if ((v = opt_arg(argc, argv, i, "--clock"))) {
		if (strcmp(v, "icount") && strcmp(v, "kvm"))
			return usage_error("--clock is icount or kvm, not '%s'", v);
		o->clock = v;
	} else if ((v = opt_arg(argc, argv, i, "--timeout")))
		return parse_int(v, "--timeout", 1, 86400, &o->timeout);
	else if ((v = opt_arg(argc, argv, i, "--qemu")))
		o->qemu = v;
	else if ((v = opt_arg(argc, argv, i, "--arch"))) {
		if (!arch_option(v))
			return KB_USAGE;
		o->arch = v;
	}
	else if ((v = opt_arg(argc, argv, i, "--dtb")))
		o->dtb = v;
	else if ((v = opt_arg(argc, argv, i, "--workload")))
		o->init.workload = v;
	else if ((v = opt_arg(argc, argv, i, "--post")))
		o->init.post = v;
	else if ((v = opt_arg(argc, argv, i, "--program")))
		return program_option(&o->programs, v) ? -1 : 0;
	else if ((v = opt_arg(argc, argv, i, "--build-cc")))
		o->build_cc_opt = v;
	else if ((v = opt_arg(argc, argv, i, "--console")))
		o->console_log = v;
	else if ((v = opt_arg(argc, argv, i, "--gcov-out")))
		o->gcov_out = v;
	else if ((v = opt_arg(argc, argv, i, "--gcov-objtree")))
		o->gcov_objtree = v;
	else if ((v = opt_arg(argc, argv, i, "--model"))) {
		if (strcmp(v, "cycles") && strncmp(v, "cycles=", 7))
			return usage_error("--model is cycles or cycles=PROFILE, not '%s'", v);
		o->model = v[6] ? v + 7 : "";
	} else if ((v = opt_arg(argc, argv, i, "--record-branches")))
		o->record_path = v;
	else if ((v = opt_arg(argc, argv, i, "--record-format"))) {
		if (!branches_format_known(v))
			return usage_error("--record-format is perf or autofdo, not '%s'", v);
		o->record_format = v;
	} else if ((v = opt_arg(argc, argv, i, "--record-period")))
		return parse_period(v, &o->record_period);
	else if ((v = opt_arg(argc, argv, i, "--guest")))
		o->init.guest = v;
	else if ((v = opt_arg(argc, argv, i, "--busybox")))
		o->init.busybox = v;
	else if (argv[*i][0] == '-' && argv[*i][1])
		return usage_error("run: unknown option '%s'", argv[*i]);
	else if (o->kernel)
		return usage_error("run: one kernel image at a time ('%s' and '%s')",
				   o->kernel, argv[*i]);
	else
		o->kernel = argv[*i];
	return 0;
}

static int parse_run_options(struct run_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	strbuf_init(&o->logs);
	o->init.programs = &o->programs;
	o->init.build = &o->build_cc;
	o->runs = -1;
	o->timeout = DEFAULT_TIMEOUT;
	o->cpus[0] = 1;
	o->nr_cpus = 1;
	for (int i = 1; i < argc; i++)
		if (parse_run_option(o, argc, argv, &i))
			return -1;
	if (!o->kernel)
		return usage_error("run: no kernel image (kbench run BZIMAGE)");
	if (o->runs < 0)
		o->runs = o->quick ? 3 : KB_DEFAULT_RUNS;
	/*
	 * icount unless asked: its figures repeat on any machine, and a
	 * /dev/kvm that opens may still not run a guest (nested hosts that
	 * refuse -cpu host's MSRs, or hang).
	 */
	if (!o->clock)
		o->clock = "icount";
	if (o->model && strcmp(o->clock, "icount"))
		return usage_error("--model needs --clock=icount (the model runs in QEMU's TCG)");
	if ((o->record_format || o->record_period) && !o->record_path)
		return usage_error("--record-format and --record-period go with --record-branches");
	if (o->record_path && strcmp(o->clock, "icount"))
		return usage_error("--record-branches needs --clock=icount (the plugin runs in "
				   "QEMU's TCG)");
	if (!o->record_format)
		o->record_format = "perf";
	if (!o->record_period)
		o->record_period = KB_RECORD_PERIOD;
	if (o->gcov_out && o->nr_cpus > 1)
		return usage_error("--gcov-out takes the profiles of one boot: one --cpus count");
	return 0;
}

/* The machine's board takes -smp for every count asked; KB_OK or KB_USAGE. */
static int check_cpus(const struct run_opts *o)
{
	for (int k = 0; k < o->nr_cpus; k++)
		if (o->cpus[k] > 1 && o->m->no_smp)
			return usage_error("--cpus=%d: %s kernels boot on one CPU only (%s)",
					   o->cpus[k], o->m->name, o->m->no_smp);
	return KB_OK;
}

/* The largest CPU count the run boots. */
static int most_cpus(const struct run_opts *o)
{
	int most = 1;

	for (int k = 0; k < o->nr_cpus; k++)
		if (o->cpus[k] > most)
			most = o->cpus[k];
	return most;
}

/*
 * --qemu's QEMU runs the guests of more CPUs than QEMU 7.2 does under
 * icount (qemu_smp_limit()): said before a boot that could only time out;
 * a QEMU that does not say its version goes on.
 */
static int check_smp_qemu(const struct run_opts *o)
{
	const struct qemu_limit *l = qemu_smp_limit(o->m);
	int most = most_cpus(o), v;

	if (!strcmp(o->clock, "kvm") || !l || most <= l->most)
		return 0;
	/* No QEMU runs both: the model's plugin loads in 7.2 only. */
	if (o->model || o->record_path)
		return error("--cpus=%d %s: the cost model runs under QEMU 7.2 only, "
			     "where %s guests of more than %d CPU%s %s under icount (kbench(1), "
			     "THE COST MODEL): --cpus=%d, or an arm64 kernel",
			     most, o->model ? "--model=cycles" : "--record-branches", o->m->name,
			     l->most, l->most > 1 ? "s" : "", l->what, l->most);
	v = qemu_version(o->qemu);
	if (v < 0 || v >= l->before_qemu)
		return 0;
	return error("--cpus=%d: %s guests of more than %d CPU%s %s under the icount clock "
		     "of QEMU %d (%s; kbench(1), BUGS); QEMU 10 runs them (Debian 12: "
		     "bookworm-backports' %s): --qemu=PATH, or --clock=kvm",
		     most, o->m->name, l->most, l->most > 1 ? "s" : "", l->what, v, o->qemu,
		     l->package);
}

/*
 * Two boots of one image can differ above some CPU count under icount
 * (qemu_repeat_limit()).  A warning: the figures are still the guest's,
 * only not repeatable to the instruction.
 */
static void warn_unrepeatable(const struct run_opts *o)
{
	const struct qemu_limit *l;
	int most = most_cpus(o), v;
	size_t i = 0;

	if (!strcmp(o->clock, "kvm"))
		return;
	while ((l = qemu_repeat_limit(o->m, &i))) {
		if (most <= l->most)
			continue;
		if (!l->before_qemu) {
			if (!qemu_fifo_possible())
				warning("--cpus=%d: two boots of one %s image can differ above %d CPUs "
					"under icount unless QEMU runs SCHED_FIFO (as root or with "
					"RLIMIT_RTPRIO; kbench(1), BUGS)", most, o->m->name, l->most);
			continue;
		}
		v = qemu_version(o->qemu);
		if (v >= 0 && v < l->before_qemu)
			warning("--cpus=%d: two boots of one %s image differ above %d CPU under "
				"QEMU %d's icount (kbench(1), BUGS); QEMU 10 repeats (Debian 12: "
				"bookworm-backports' %s)", most, o->m->name, l->most, v, l->package);
	}
}

/* Whether c sets up the run's boot with the model's plugin (qemu_probe()): its words if not. */
static void probe_qemu(const struct run_opts *o, struct qemu_candidate *c)
{
	struct kb_branch_args br = o->br;
	const struct qemu_boot b = {
		.qemu = c->path, .m = o->m, .dtb = o->dtb, .cpus = most_cpus(o),
		.clock = o->clock, .program_bytes = o->programs.bytes,
		.model = o->model ? &o->md : NULL, .records = "/dev/null",
		.branches = o->record_path ? &br : NULL,
	};
	struct strbuf why = STRBUF_INIT;

	br.out = "/dev/null";
	c->probed = 1;
	if (qemu_probe(&b, &why))
		c->probe_error = strbuf_detach(&why, NULL);
	strbuf_release(&why);
}

/*
 * No --qemu: the first QEMU that runs the request (qemu-choice.h).  Each
 * is read (its version; under the model its command line tried) only
 * until one fits.  0, or -1 after the refusal naming each and why.
 */
static int choose_qemu(struct run_opts *o)
{
	const struct qemu_request r = {
		.m = o->m, .cpus = most_cpus(o), .icount = strcmp(o->clock, "kvm") != 0,
		.model = o->model || o->record_path,
	};
	const char *dirs = getenv("KBENCH_QEMU_DIRS");
	struct qemu_candidates cs;
	int pick;

	qemu_candidates(&cs, o->m, dirs);
	for (size_t i = 0; i < cs.nr; i++) {
		struct qemu_candidate *c = &cs.v[i];

		if (c->found)
			c->version = qemu_version_text(c->path);
		c->fit = qemu_judge(&r, c, &c->why);
		if (c->fit == QEMU_PROBE) {
			probe_qemu(o, c);
			c->fit = qemu_judge(&r, c, &c->why);
		}
		if (c->fit == QEMU_FIT)
			break;
	}
	pick = qemu_pick(&cs);
	if (pick < 0) {
		struct strbuf sb = STRBUF_INIT;

		qemu_refusal(&r, &cs, &sb);
		error("%s", sb.buf);
		note("kbench tries PATH's %s, then each directory of KBENCH_QEMU_DIRS (%s%s); "
		     "--qemu=PATH runs the one named", o->m->qemu, dirs ? dirs : KB_QEMU_DIRS,
		     dirs ? "" : ", where scripts/install-deps unpacks bookworm-backports' QEMU");
		strbuf_release(&sb);
	} else {
		o->qemu_path = xstrdup(cs.v[pick].path);
		o->qemu_version = cs.v[pick].version ? xstrdup(cs.v[pick].version) : NULL;
		o->qemu = o->qemu_path;
	}
	qemu_candidates_release(&cs);
	return pick < 0 ? -1 : 0;
}

/* --qemu's QEMU as it will run (a name found in PATH), and its version. */
static void given_qemu(struct run_opts *o)
{
	o->qemu_path = strchr(o->qemu, '/') ? NULL : find_in_path(o->qemu);
	if (!o->qemu_path)
		o->qemu_path = xstrdup(o->qemu);
	o->qemu_version = qemu_version_text(o->qemu);
}

static int check_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return error_errno("cannot read %s", path);
	if (!S_ISREG(st.st_mode))
		return error("%s: not a regular file", path);
	return 0;
}

/*
 * The files exist, the machine is known, and the guest's programs are for
 * it: KB_OK, else the exit status.  An image of no machine kbench knows is
 * a kernel that cannot boot (1), as QEMU's refusal of it would be.
 */
/* A board's device tree as Kbuild leaves it: dts/NAME beside the image. */
static const char *dtb_beside(struct run_opts *o, const char *name)
{
	const char *slash = strrchr(o->kernel, '/');
	int dir = slash ? (int)(slash - o->kernel + 1) : 0;
	int n = snprintf(o->dtb_buf, sizeof(o->dtb_buf), "%.*sdts/%s", dir, o->kernel, name);

	return n > 0 && (size_t)n < sizeof(o->dtb_buf) ? o->dtb_buf : NULL;
}

static char *objtree_of(const char *kernel);

/* a, sep, b (malloc'ed); no sep after an empty a. */
static char *join_with(const char *a, int sep, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, a);
	if (*a)
		strbuf_addch(&sb, sep);
	strbuf_addstr(&sb, b);
	return strbuf_detach(&sb, NULL);
}

/*
 * Where the kernel's addresses begin: the upper half of a 64-bit space,
 * the top quarter of arm's 32-bit one (its 3G/1G split), mips' KSEG0;
 * s390x's kernel has an address space of its own, told apart by no
 * address: all of it is recorded there.
 */
static unsigned long long kernel_base(const struct kb_machine *m)
{
	if (m->elf_machine == EM_S390)
		return 0;
	if (m->elf_class == ELFCLASS64)
		return 1ull << 63;
	return m->elf_machine == EM_ARM ? 0xc0000000ull : 0x80000000ull;
}

/*
 * The record's side of check_inputs: the plugin, where the kernel is,
 * and the build ID of the vmlinux beside the image, which a profile made
 * from the record is checked against.  The kernel goes unrandomized
 * (nokaslr) where it could be, so that the addresses are the vmlinux's.
 */
static int record_setup(struct run_opts *o)
{
	char *tree = objtree_of(o->kernel), *vmlinux;
	int ret = 0;

	if (!(o->br.plugin = model_plugin()))
		return -1;
	o->br.kernel_base = kernel_base(o->m);
	o->br.period = o->record_period;
	branches_init(&o->rec);
	o->rec.period = o->record_period;
	o->rec.kernel = xstrdup(o->kernel);
	vmlinux = tree ? join_with(tree, '/', "vmlinux") : NULL;
	if (vmlinux && !access(vmlinux, R_OK))
		ret = build_id_of(vmlinux, &o->rec.build_id) ||
		      (!strcmp(o->record_format, "autofdo") && load_base_of(vmlinux, &o->rec.base));
	if (!ret && !o->rec.build_id)
		warning("kernel %s: no build ID found (no vmlinux with one beside it): the "
			"record cannot be checked against the build a profile goes to", o->kernel);
	free(vmlinux);
	free(tree);
	if (o->m->elf_machine == EM_X86_64 || o->m->elf_machine == EM_AARCH64)
		o->boot_append = join_with(o->append ? o->append : "", ' ', "nokaslr");
	return ret;
}

static int check_inputs(struct run_opts *o)
{
	const char *files[] = { o->init.workload, o->init.post };

	if (check_file(o->kernel))
		return KB_TROUBLE;
	o->m = o->arch ? machine_named(o->arch) : machine_of_image(o->kernel);
	if (!o->m)
		return access(o->kernel, R_OK) ? KB_TROUBLE : KB_KERNEL_FAIL;
	if (machine_check_image(o->m, o->kernel))
		return access(o->kernel, R_OK) ? KB_TROUBLE : KB_KERNEL_FAIL;
	if (check_cpus(o))
		return KB_USAGE;
	/* --qemu decides: no search, its own checks. */
	if (o->qemu && !o->lab) {
		if (check_smp_qemu(o))
			return KB_TROUBLE;
		warn_unrepeatable(o);
	}
	if (o->m->dtb && !o->dtb && !(o->dtb = dtb_beside(o, o->m->dtb))) {
		error("kernel %s: path too long for its device tree", o->kernel);
		return KB_TROUBLE;
	}
	if (o->dtb && check_file(o->dtb))
		return KB_TROUBLE;
	o->init.guest = guest_path(o->init.guest, o->m);
	o->init.busybox = busybox_path(o->init.busybox, o->m);
	if (check_file(o->init.guest) ||
	    machine_check_program(o->m, o->init.guest, "the guest", "--guest=FILE"))
		return KB_TROUBLE;
	/* No shell fails only fork_sh (a warning later); a foreign one, all of it. */
	if (!access(o->init.busybox, F_OK) &&
	    machine_check_program(o->m, o->init.busybox, "the shell", "--busybox=FILE"))
		return KB_TROUBLE;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		if (files[i] && check_file(files[i]))
			return KB_TROUBLE;
	if (programs_resolve(&o->programs, o->m))
		return KB_TROUBLE;
	if (build_cc_resolve(&o->build_cc, o->build_cc_opt, o->m))
		return KB_TROUBLE;
	/* Its files only where the row runs: they move the other rows. */
	if (!build_row_wanted(o->only))
		build_cc_release(&o->build_cc);
	if (!o->build_cc_opt && build_row_named(o->only))
		note("the build row runs with --build-cc only: left out");
	if (o->model && model_setup(&o->md, o->model, o->m))
		return KB_TROUBLE;
	if (o->record_path && record_setup(o))
		return KB_TROUBLE;
	if (o->lab)
		return KB_OK;
	if (o->qemu) {
		given_qemu(o);
	} else {
		if (choose_qemu(o)) {
			model_release(&o->md);
			return KB_TROUBLE;
		}
		warn_unrepeatable(o);
	}
	return KB_OK;
}

/* Boot o's kernel with initrd on cpus CPUs: qemu_boot()'s status. */
static int boot(const struct run_opts *o, const char *initrd, int cpus, struct console *c,
		int *timed_out)
{
	const struct qemu_boot b = {
		.qemu = o->qemu, .m = o->m, .kernel = o->kernel, .dtb = o->dtb, .initrd = initrd,
		.cpus = cpus, .clock = o->clock, .runs = o->runs, .quick = o->quick,
		.gcov = o->gcov_out != NULL,
		.only = o->only, .append = o->boot_append ? o->boot_append : o->append,
		.program_bytes = o->programs.bytes,
		.model = o->model ? &o->md : NULL, .records = o->records, .timeout = o->timeout,
		.branches = o->record_path ? &o->br : NULL,
	};

	return qemu_boot(&b, c, timed_out);
}

/* Every boot's console so far, one after the other. */
static void save_console(struct run_opts *o, const struct console *c)
{
	if (!o->console_log)
		return;
	strbuf_add(&o->logs, c->log.buf, c->log.len);
	if (write_atomically(o->console_log, o->logs.buf, o->logs.len))
		warning("the console log was not kept");
}

/* "name: message", and a program row's output lines after it. */
static void print_fail(const struct console *c, const char *fail)
{
	size_t len = strcspn(fail, ":");

	fprintf(stderr, "  %s\n", fail);
	for (size_t i = 0; i < c->output.nr; i++)
		if (!strncmp(c->output.v[i], fail, len) && c->output.v[i][len] == ' ')
			fprintf(stderr, "    | %s\n", c->output.v[i] + len + 1);
}

/*
 * A guest that saw fewer CPUs than QEMU had: its rows would be another
 * count's.  One that did not say (older than cpus=) is refused only when
 * it had more than one.
 */
static int judge_cpus(const struct run_opts *o, const struct console *c, int cpus)
{
	if (cpus > 1 && !c->cpus)
		return error("kernel %s: the guest did not say how many CPUs it saw, %d asked "
			     "(a stale --guest?)", o->kernel, cpus);
	if (c->cpus && c->cpus < cpus)
		return error("kernel %s: the guest saw %d CPU%s of the %d QEMU booted it with: "
			     "the kernel has CONFIG_SMP off or NR_CPUS < %d", o->kernel, c->cpus,
			     c->cpus == 1 ? "" : "s", cpus, cpus);
	return 0;
}

/* Why the boot did not give a result, naming the kernel; KB_OK if it did. */
static int judge(const struct run_opts *o, const struct console *c, int status, int timed_out,
		 int cpus)
{
	const char *k = o->kernel;

	if (timed_out) {
		error("kernel %s: no end after %d s, QEMU killed (%s%s)", k, o->timeout,
		      c->last_row ? "the last benchmark to finish: " : c->begun ?
		      "before the first benchmark finished" : "the guest never started",
		      c->last_row ? c->last_row : "");
		/*
		 * QEMU 7.2's round-robin under icount never gives the second
		 * CPU of an x86 guest a slice while the first waits for it in
		 * a loop that never idles (6.1's do_boot_cpu): measured, see
		 * kbench(1), BUGS.
		 */
		if (!c->begun && cpus > 1 && o->m->elf_machine == EM_X86_64 &&
		    strcmp(o->clock, "kvm"))
			note("an x86_64 guest of more than one CPU hangs while bringing up its "
			     "second CPU under QEMU 7.2's icount clock (kbench(1), BUGS): QEMU 10, "
			     "--clock=kvm, or an arm64 kernel");
	} else if (c->qemu_error && !c->begun && o->model && strstr(c->qemu_error, "plugin")) {
		/* Not the kernel's doing: kbench's own plugin did not load. */
		error("QEMU could not load the cost model's plugin %s: %s", o->md.plugin,
		      c->qemu_error);
		if (strstr(c->qemu_error, "minimum version"))
			note("the plugin is built for QEMU 7.2's plugin API (Debian 12's QEMU); "
			     "later QEMUs refuse it (kbench(1), THE COST MODEL): run --model "
			     "with Debian 12's qemu-system");
		return KB_TROUBLE;
	} else if (c->qemu_error && !c->begun) {
		error("kernel %s: QEMU could not boot it: %s", k, c->qemu_error);
		return KB_KERNEL_FAIL;
	} else if (c->panic) {
		error("kernel %s panicked%s%s: %s", k, c->last_row ? " after benchmark " : "",
		      c->last_row ? c->last_row : "", c->panic);
	} else if (!c->begun) {
		error("kernel %s did not boot: the guest never started (QEMU %s %d)", k,
		      WIFSIGNALED(status) ? "killed by signal" : "exit status",
		      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	} else if (c->bad_version) {
		error("kernel %s: the guest speaks another protocol version than kbench "
		      "(a stale --guest?)", k);
	} else if (c->ns_per_insn != qemu_ns_per_insn(o->clock, o->m)) {
		error("kernel %s: the guest divided its clock by %g, not %u: its figures would "
		      "not be instruction counts (a stale --guest?)", k, c->ns_per_insn,
		      qemu_ns_per_insn(o->clock, o->m));
	} else if (judge_cpus(o, c, cpus)) {
		return KB_KERNEL_FAIL;
	} else if (!c->ended) {
		error("kernel %s: the guest stopped without its end line (%s%s)", k,
		      c->last_row ? "after benchmark " : "before the first benchmark",
		      c->last_row ? c->last_row : "");
	} else if (c->fails.nr || !c->end_ok || !c->res->nr) {
		error("kernel %s: %zu benchmark(s) failed%s", k, c->fails.nr,
		      c->fails.nr ? ":" : " (no results)");
		for (size_t i = 0; i < c->fails.nr; i++)
			print_fail(c, c->fails.v[i]);
		return KB_KERNEL_FAIL;
	} else {
		if (c->workload_status > 0)
			warning("the workload exited with status %d", c->workload_status);
		return KB_OK;
	}
	console_tail(c, 25);
	return KB_KERNEL_FAIL;
}

static int write_result(const struct run_opts *o, struct kb_result *res)
{
	struct strbuf json = STRBUF_INIT;
	int ret;

	res->clock = xstrdup(o->clock);
	res->kernel = xstrdup(o->kernel);
	res->append = xstrdup(o->append ? o->append : "");
	res->runs = o->runs;
	res->quick = o->quick;
	res->qemu = xstrdup(o->qemu_path);
	res->qemu_version = o->qemu_version ? xstrdup(o->qemu_version) : NULL;
	if (!res->compiler)
		res->compiler = xstrdup("unknown");
	result_to_json(res, &json);
	ret = write_atomically(o->output ? o->output : "-", json.buf, json.len);
	strbuf_release(&json);
	return ret;
}

/* The build tree of a kernel image: TREE/arch/ARCH/boot/IMAGE. */
static char *objtree_of(const char *kernel)
{
	char *abs = realpath(kernel, NULL), *arch = NULL;

	for (char *p = abs; p && (p = strstr(p, "/arch/")); p++)
		arch = p;
	if (!arch || !strstr(arch, "/boot/")) {
		free(abs);
		return NULL;
	}
	*arch = '\0';
	return abs;
}

/* The profiles the guest sent, into --gcov-out; KB_OK or why not. */
static int write_profiles(const struct run_opts *o, struct console *c)
{
	char *objtree = o->gcov_objtree ? realpath(o->gcov_objtree, NULL) : objtree_of(o->kernel);
	int n;

	if (!objtree) {
		error("kernel %s: no build tree to take profile paths from (--gcov-objtree)",
		      o->kernel);
		return KB_TROUBLE;
	}
	if (c->gcov.announced < 0) {
		error("kernel %s sent no profiles (built without CONFIG_GCOV_KERNEL?)", o->kernel);
		free(objtree);
		return KB_KERNEL_FAIL;
	}
	if (c->gcov.bad)
		warning("%d profile file(s) arrived damaged and were dropped", c->gcov.bad);
	if ((size_t)c->gcov.announced != c->gcov.nr + (size_t)c->gcov.bad)
		warning("the guest sent %d profile file(s), %zu arrived", c->gcov.announced,
			c->gcov.nr);
	gcov_add_summaries(&c->gcov);
	n = gcov_write(&c->gcov, o->gcov_out, objtree);
	free(objtree);
	if (n < 0)
		return KB_TROUBLE;
	note("%d profiles in %s", n, o->gcov_out);
	return KB_OK;
}

/* The model's figures into the rows; KB_OK or why not. */
static int add_model(const struct run_opts *o, const struct console *c, struct kb_result *res)
{
	struct model_records r;
	int ret;

	if (model_read(&r, o->records))
		return KB_TROUBLE;
	ret = model_attach(res, &c->ops, &r, o->kernel) ? KB_TROUBLE : KB_OK;
	model_records_release(&r);
	return ret;
}

static int make_records(struct run_opts *o)
{
	int fd;

	if (o->record_path) {
		if ((fd = tempfile_create("kbench-", ".branches", &o->br.out)) < 0)
			return -1;
		close(fd);
	}
	if (!o->model)
		return 0;
	fd = tempfile_create("kbench-", ".model", &o->records);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* A boot's branch samples onto the record; KB_OK or why not. */
static int add_branches(struct run_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = KB_OK;

	if (strbuf_read_file(&sb, o->br.out, 0))
		ret = (error_errno("cannot read the branch samples %s", o->br.out), KB_TROUBLE);
	else if (branches_add_text(&o->rec, o->br.out, sb.buf))
		ret = KB_TROUBLE;
	strbuf_release(&sb);
	return ret;
}

/* The record of every boot into --record-branches's file. */
static int write_branches(const struct run_opts *o)
{
	if (!o->rec.nr)
		warning("no branch was sampled: a smaller --record-period, or more rows");
	if (branches_write(&o->rec, o->record_path, o->record_format))
		return KB_TROUBLE;
	note("%zu branch samples (one in %llu of the taken branches into the kernel) in %s",
	     o->rec.nr, o->record_period, o->record_path);
	return KB_OK;
}

static int make_initrd(const struct run_opts *o, const char **path)
{
	int fd = tempfile_create("kbench-", ".cpio", path), ret;

	if (fd < 0)
		return -1;
	ret = write_initramfs(fd, *path, &o->init);
	if (close(fd) && !ret)
		ret = error_errno("cannot write %s", *path);
	return ret;
}

/*
 * One boot on cpus CPUs: its rows, given their CPUs, onto all.  KB_OK or
 * why not.
 */
static int boot_once(struct run_opts *o, const char *initrd, int cpus, struct kb_result *all)
{
	struct kb_result res;
	struct console c;
	int status, timed_out = 0, ret;

	result_init(&res);
	console_init(&c, &res);
	note("booting %s (clock %s, %d runs%s%s%s, %d CPU%s) in %s%s%s%s", o->kernel, o->clock,
	     o->runs, o->quick ? ", quick" : "", o->model ? ", cost model " : "",
	     o->model ? o->md.profile.name : "", cpus, cpus == 1 ? "" : "s", o->qemu_path,
	     o->qemu_version ? " (QEMU " : "", o->qemu_version ? o->qemu_version : "",
	     o->qemu_version ? ")" : "");
	status = boot(o, initrd, cpus, &c, &timed_out);
	save_console(o, &c);
	if (status < 0)
		ret = KB_TROUBLE;
	else
		ret = judge(o, &c, status, timed_out, cpus);
	if (ret == KB_OK && programs_check_rows(&o->programs, &res, o->kernel))
		ret = KB_KERNEL_FAIL;
	if (ret == KB_OK && o->gcov_out)
		ret = write_profiles(o, &c);
	if (ret == KB_OK && o->model)
		ret = add_model(o, &c, &res);
	if (ret == KB_OK && o->record_path)
		ret = add_branches(o);
	if (ret == KB_OK)
		result_take_rows(all, &res, cpus);
	console_release(&c);
	result_release(&res);
	return ret;
}

/* Boot once per --cpus count, then write every row into one result file. */
static int run_boots(struct run_opts *o, const char *initrd)
{
	struct kb_result all;
	double t0 = qemu_clock();
	int ret = KB_OK;

	result_init(&all);
	for (int k = 0; k < o->nr_cpus && ret == KB_OK; k++)
		ret = boot_once(o, initrd, o->cpus[k], &all);
	if (ret == KB_OK && write_result(o, &all))
		ret = KB_TROUBLE;
	if (ret == KB_OK && o->record_path)
		ret = write_branches(o);
	if (ret == KB_OK)
		note("%zu benchmarks in %.0f s%s%s", all.nr, qemu_clock() - t0,
		     o->output ? ", results in " : "", o->output ? o->output : "");
	result_release(&all);
	return ret;
}

static int run(struct run_opts *o)
{
	const char *initrd = NULL;
	int ret;

	if ((ret = check_inputs(o)) != KB_OK)
		return ret;
	if (!strcmp(o->clock, "kvm") && access("/dev/kvm", R_OK | W_OK)) {
		error_errno("--clock=kvm needs /dev/kvm");
		return KB_TROUBLE;
	}
	if (make_initrd(o, &initrd) || make_records(o))
		ret = KB_TROUBLE;
	else
		ret = run_boots(o, initrd);
	if (initrd)
		tempfile_remove(initrd);
	if (o->records)
		tempfile_remove(o->records);
	if (o->br.out)
		tempfile_remove(o->br.out);
	model_release(&o->md);
	return ret;
}

int run_precheck(const struct strvec *run_args, const char *model, const struct kb_machine *m)
{
	struct strvec args = STRVEC_INIT;
	struct run_opts o;
	int ret;

	strvec_push(&args, "run");
	if (run_args->v)
		strvec_pushv(&args, run_args->v);
	if (model)
		strvec_pushf(&args, "--model=%s", model);
	strvec_push(&args, "IMAGE");	/* run's one required argument, not read here */
	if (parse_run_options(&o, (int)args.nr, args.v)) {
		ret = KB_USAGE;
	} else {
		o.m = m;
		ret = check_cpus(&o) ? KB_USAGE : KB_OK;
		if (ret == KB_OK && o.qemu)
			ret = check_smp_qemu(&o) ? KB_TROUBLE : KB_OK;
		else if (ret == KB_OK)
			ret = (o.model && model_setup(&o.md, o.model, m)) || choose_qemu(&o) ?
			      KB_TROUBLE : KB_OK;
		model_release(&o.md);
	}
	free(o.qemu_path);
	free(o.qemu_version);
	programs_release(&o.programs);
	build_cc_release(&o.build_cc);
	strbuf_release(&o.logs);
	strvec_clear(&args);
	return ret;
}

/* What a lab's boot cannot do: the options that need kbench's own QEMU here. */
static int lab_refuses(const struct run_opts *o)
{
	const char *opt = o->model ? "--model" : o->record_path ? "--record-branches" :
			  o->gcov_out ? "--gcov-out" : o->console_log ? "--console" :
			  o->qemu ? "--qemu" : NULL;

	if (opt)
		return usage_error("lava job: %s is not for a lab's boot", opt);
	if (o->nr_cpus > 1)
		return usage_error("lava job: one --cpus count a job (a job a boot)");
	return 0;
}

/* The boot into job: run's figures, QEMU's options and the kernel's command line. */
static void lab_describe(const struct run_opts *o, struct lab_job *job)
{
	const struct qemu_boot b = {
		.m = o->m, .kernel = o->kernel, .cpus = o->cpus[0], .clock = o->clock,
		.runs = o->runs, .quick = o->quick, .only = o->only, .append = o->append,
		.program_bytes = o->programs.bytes,
	};

	job->m = o->m;
	job->kernel = realpath(o->kernel, NULL);
	if (!job->kernel)
		job->kernel = xstrdup(o->kernel);
	job->clock = o->clock;
	job->cpus = o->cpus[0];
	job->runs = o->runs;
	job->quick = o->quick;
	job->timeout = o->timeout;
	job->append = o->append ? xstrdup(o->append) : NULL;
	job->only = o->only ? xstrdup(o->only) : NULL;
	qemu_lab_args(&b, &job->qemu, &job->cmdline, &job->memory);
}

int run_lab_job(int argc, char **argv, struct lab_job *job, struct lab_files *files)
{
	struct run_opts o;
	int ret = parse_run_options(&o, argc, argv) ? KB_USAGE : KB_OK, fd;
	char *tmp;

	if (ret == KB_OK && lab_refuses(&o))
		ret = KB_USAGE;
	o.lab = 1;
	if (ret == KB_OK)
		ret = check_inputs(&o);
	if (ret == KB_OK) {
		lab_describe(&o, job);
		files->kernel = job->kernel;
		files->dtb = o.dtb ? xstrdup(o.dtb) : NULL;
		fd = atomic_create(files->initrd, &tmp);
		if (fd < 0 || atomic_commit(fd, tmp, files->initrd,
					    write_initramfs(fd, files->initrd, &o.init) != 0))
			ret = KB_TROUBLE;
	}
	programs_release(&o.programs);
	build_cc_release(&o.build_cc);
	strbuf_release(&o.logs);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	int ret = parse_run_options(&o, argc, argv) ? KB_USAGE : run(&o);

	free(o.qemu_path);
	free(o.qemu_version);
	free((char *)o.br.plugin);
	free((char *)o.boot_append);
	branches_release(&o.rec);
	programs_release(&o.programs);
	build_cc_release(&o.build_cc);
	strbuf_release(&o.logs);
	return ret;
}
