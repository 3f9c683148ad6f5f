// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: compare Linux kernels built by different compilers with
 * LMBench-style tables.  `run` boots one kernel in QEMU with the
 * benchmark initramfs and records its results, `compare` prints the
 * table of several results and draws the chart, `config` prints the
 * kernel configuration every compared kernel is built from.
 */
#include "kbench.h"
#include "machine.h"
#include "fileio.h"
#include "run-command.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"
#include "ccd-config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(void)
{
	printf("usage: kbench run [options] BZIMAGE\n"
	       "       kbench compare [-o CHART.svg] [--json=FILE] [--noise=FILE|none]\n"
	       "                      [--trained=LIST] [--metric=METRIC]\n"
	       "                      A.json B.json [C.json...]\n"
	       "       kbench backends --source=TREE --cc=NAME --cc=NAME... [options]\n"
	       "       kbench pgo --source=TREE [--out=DIR] [options]\n"
	       "       kbench calibrate [--json] [--model=cycles[=PROFILE]] [--arch=ARCH]\n"
	       "       kbench config [--arch=ARCH]\n"
	       "       kbench initramfs -o FILE [--workload=FILE] [--post=FILE]\n"
	       "                        [--program=NAME=COMMAND...] [--arch=ARCH]\n"
	       "\n"
	       "Compares Linux kernels built by different compilers with LMBench-style\n"
	       "tables: processes, IPC latency and bandwidth, context switches, file and\n"
	       "VM latencies, and memory rows as controls.\n"
	       "\n"
	       "run: boots BZIMAGE (built from `kbench config`) in QEMU with kbench's\n"
	       "initramfs and writes its results as JSON.\n"
	       "  -o, --output=FILE   the result file (default: standard output); written\n"
	       "                      only when every benchmark ran\n"
	       "  --runs=N            samples per benchmark, 1 to 99 (default 9; 3 with\n"
	       "                      --quick)\n"
	       "  --quick             a tenth of the iterations (smoke tests)\n"
	       "  --only=A,B          only these benchmarks or groups\n"
	       "  --append=ARGS       more kernel command-line arguments\n"
	       "  --clock=CLOCK       icount: QEMU TCG counting instructions (1 ns each),\n"
	       "                      deterministic (the default); kvm: real time\n"
	       "                      under KVM (-cpu host)\n"
	       "  --timeout=SEC       kill QEMU after SEC seconds (default 900)\n"
	       "  --qemu=PATH         the QEMU binary (default: the machine's,\n"
	       "                      qemu-system-x86_64, qemu-system-aarch64 -M virt, ...)\n"
	       "  --workload=FILE     a static program the guest runs before the benchmarks\n"
	       "  --post=FILE         a static program the guest runs after them\n"
	       "  --program='NAME=COMMAND ARGS...'  (repeatable) a row NAME of the group\n"
	       "                      programs: the host's COMMAND (found in PATH; a\n"
	       "                      dynamic ELF program, a Debian package's, e.g.\n"
	       "                      'hb=hackbench -g 1 -f 5 -l 100') goes into the\n"
	       "                      initramfs with its interpreter and libraries (read\n"
	       "                      from its ELF), each sample one run of it in the\n"
	       "                      guest; a non-zero exit fails the row, with its\n"
	       "                      output's tail.  ARGS are split on blanks, no quoting;\n"
	       "                      --only does not drop program rows, --only=programs\n"
	       "                      runs them alone\n"
	       "  --console=FILE      keep the whole console log\n"
	       "  --gcov-out=DIR      collect the kernel's gcov counters (a kernel with\n"
	       "                      CONFIG_GCOV_KERNEL) into DIR, named for ccd's\n"
	       "                      profile use: kernel/fork.o's are DIR/kernel#fork.gcda\n"
	       "  --gcov-objtree=DIR  the kernel's build tree (default: from BZIMAGE's path)\n"
	       "  --guest=FILE        the guest init (default: $KBENCH_GUEST, else the\n"
	       "                      installed kbench-guest)\n"
	       "  --busybox=FILE      the static shell of the fork_sh row (/bin/busybox;\n"
	       "                      another machine's: /usr/TRIPLE/bin/busybox)\n"
	       "  --model=cycles[=PROFILE]  also run the cost model (a QEMU plugin: caches,\n"
	       "                      branch prediction): each row gains modelled \"cycles\"\n"
	       "                      and \"events\" per operation; PROFILE is a machine\n"
	       "                      (x86-64, arm64) or a profile file (default: the\n"
	       "                      image's machine); icount only\n"
	       "  --arch=ARCH         Debian's name: amd64, arm64, armhf, armel, ppc64el,\n"
	       "                      s390x, mips64el, mipsel, riscv64 (Kbuild's where it\n"
	       "                      is one machine: x86_64, powerpc, s390, riscv);\n"
	       "                      default: read from the image (an arm zImage is\n"
	       "                      armhf's); another machine's guest is\n"
	       "                      kbench-guest-NAME, beside kbench-guest\n"
	       "  --dtb=FILE          the board's device tree (armel's Versatile/PB:\n"
	       "                      default dts/versatile-pb.dtb beside the image)\n"
	       "\n"
	       "compare: one row per benchmark, each kernel's median and, for every kernel\n"
	       "after the first, the difference in percent: positive is faster than the\n"
	       "first (less time, more MB/s); '*' marks a significant difference (outside\n"
	       "the spread of the samples and larger than the row's noise, what kernels\n"
	       "with the same code show: kbench's noise table for the clock, or\n"
	       "--noise=FILE; --noise=none: the spread alone), '~' one that is not.\n"
	       "-o writes an SVG bar chart, --json=FILE the table.  --trained=LIST (two files,\n"
	       "plain and profile-guided): the gains of the rows the training ran and of\n"
	       "the held-out rows, apart (LIST as pgo's --train-rows).  --metric=cycles,\n"
	       "instructions or an event (loads, stores, l1i_misses, l1d_misses, l2_misses,\n"
	       "llc_misses, branches, branch_misses): the cost model's figures per\n"
	       "operation instead of the rows' own (results of run --model=cycles).\n"
	       "\n"
	       "backends: for every --cc, configures TREE (tinyconfig plus `kbench config`)\n"
	       "in OUT/NAME, builds bzImage with make CC=ccd LD=lkd and CCD_CC=NAME, runs it\n"
	       "into OUT/NAME.json; then compares them, the first as the reference.\n"
	       "  --out=DIR (default kbench-backends)  --jobs=N (default 2)\n"
	       "  --ccd=PATH, --lkd=PATH (default: from PATH)  -o CHART.svg\n"
	       "  --dry-run           print the commands instead\n"
	       "  run's options (--quick, --runs, --only, --append, --clock, --program...)\n"
	       "  pass on;\n"
	       "  --model=cycles[=PROFILE]: measured under the cost model, judged in cycles\n"
	       "  --arch=ARCH         another machine's kernels (cross: Debian's TRIPLE-gcc\n"
	       "                      for --cc=gcc), its image, measured on its QEMU\n"
	       "\n"
	       "pgo: a profile-guided kernel through ccd and gcc, measured.  Builds TREE in\n"
	       "OUT/plain, instrumented (the kernel's gcov) in OUT/instr, boots that with\n"
	       "the training's rows and workload and copies its counters into OUT/profile,\n"
	       "builds OUT/pgo with ccd giving every compile its profile, then runs and\n"
	       "compares plain and pgo (OUT/compare.txt, OUT/chart.svg), the rows trained\n"
	       "on and the held-out rows apart, and writes OUT/summary.json.\n"
	       "  --train-rows=LIST   rows and groups the training runs, all or none\n"
	       "                      (default: every other row but the controls)\n"
	       "  --train-workload=FILE  a static program the training runs first\n"
	       "                      (required with --train-rows=none)\n"
	       "  --out=DIR (default kbench-pgo)  --cc=NAME (default gcc)  --jobs=N\n"
	       "  --ccd=PATH, --lkd=PATH  --dry-run  run's options pass on (--program to\n"
	       "                      the measurements only: its rows are never trained on,\n"
	       "                      their gain is a third group, programs)\n"
	       "  --model=cycles[=PROFILE]: plain and pgo measured under the cost model (not\n"
	       "                      the training), gains in cycles (summary.json \"metric\")\n"
	       "  --arch=ARCH         as for backends\n"
	       "\n"
	       "calibrate: the cost model's machine as a program sees it (no kernel: the\n"
	       "probe runs in qemu-x86_64 or qemu-aarch64): cycles per load of a dependent\n"
	       "chase over 4 KiB to 64 MiB, a step at each cache level, and a regular and\n"
	       "a random branch loop.  --json: [{\"bytes\", \"cycles_per_load\"}...].\n"
	       "\n"
	       "Under the icount clock a time is an instruction count: caches, branch\n"
	       "prediction and memory are modelled only by --model=cycles (see kbench(1)).\n"
	       "\n"
	       "The initramfs is built in $TMPDIR (removed on every exit path).\n"
	       "\n"
	       "exit status: 0 success; 1 the kernel failed (not an image kbench knows,\n"
	       "did not boot, panicked, hung, a benchmark failed); 2 usage error; 3\n"
	       "kbench's own trouble (QEMU could not run, a file could not be read or\n"
	       "written, a file is not a kbench result, clocks mixed, the cost model's\n"
	       "plugin missing or a profile wrong)\n");
}

int usage_error(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s", sb.buf);
	fprintf(stderr, "Try 'kbench --help'.\n");
	strbuf_release(&sb);
	return KB_USAGE;
}

const char *opt_arg(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len])
		return NULL;
	if (*i + 1 >= argc) {
		usage_error("%s needs a value", name);
		exit(KB_USAGE);
	}
	return argv[++*i];
}

int atomic_create(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	struct strbuf sb = STRBUF_INIT;
	int fd;

	if (slash)
		strbuf_add(&sb, path, (size_t)(slash - path + 1));
	strbuf_addf(&sb, ".%s.XXXXXX", slash ? slash + 1 : path);
	*tmp = strbuf_detach(&sb, NULL);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot create a file beside %s", path);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	tempfile_register(*tmp);
	return fd;
}

int atomic_commit(int fd, char *tmp, const char *path, int failed)
{
	if (!failed && fchmod(fd, 0644))
		failed = error_errno("cannot write %s", path);
	if (close(fd) && !failed)
		failed = error_errno("cannot write %s", path);
	if (!failed && rename(tmp, path))
		failed = error_errno("cannot rename %s to %s", tmp, path);
	if (failed)
		tempfile_remove(tmp);
	else
		tempfile_forget(tmp);
	free(tmp);
	return failed ? -1 : 0;
}

int write_atomically(const char *path, const char *text, size_t len)
{
	char *tmp;
	int fd, failed = 0;

	if (!strcmp(path, "-")) {
		if (write_in_full(1, text, len))
			return error_errno("cannot write the standard output");
		return 0;
	}
	fd = atomic_create(path, &tmp);
	if (fd < 0)
		return -1;
	if (write_in_full(fd, text, len))
		failed = error_errno("cannot write %s", path);
	return atomic_commit(fd, tmp, path, failed);
}

static int cmd_config(int argc, char **argv)
{
	const struct kb_machine *m = machine_host();
	const char *v;

	for (int i = 1; i < argc; i++) {
		if (!(v = opt_arg(argc, argv, &i, "--arch")))
			return usage_error("config: unexpected argument '%s'", argv[i]);
		if (!(m = machine_named(v)))
			return machine_arch_error(v);
	}
	if (write_in_full(1, m->config, strlen(m->config)))
		return error_errno("cannot write the standard output"), KB_TROUBLE;
	return KB_OK;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "run", cmd_run }, { "compare", cmd_compare },
		{ "config", cmd_config }, { "initramfs", cmd_initramfs },
		{ "backends", cmd_backends },
		{ "pgo", cmd_pgo }, { "calibrate", cmd_calibrate },
	};

	warn_set_progname("kbench");
	run_command_init();
	/* die() is for kbench's own trouble (out of memory, say). */
	die_status = KB_TROUBLE;
	if (argc < 2)
		return usage_error("no command (run, compare, backends, pgo, calibrate, config)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage();
		return KB_OK;
	}
	/* `kbench run --help` as well: the one page covers every command. */
	if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
		usage();
		return KB_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("kbench (ccd-suite) %s\n", CCD_VERSION);
		return KB_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (run, compare, backends, pgo, calibrate, config)",
			   argv[1]);
}
