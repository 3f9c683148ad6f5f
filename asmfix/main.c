// SPDX-License-Identifier: GPL-2.0
/* asmfix: the standalone filter over the asmfix library. */
#include "asmfix.h"
#include "ccd-config.h"
#include "fileio.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exit codes. */
#define EXIT_INPUT 1	/* input problem a pass cannot repair, or usage error */
#define EXIT_CHANGES 2	/* --check: something would change */
#define EXIT_IO 3	/* cannot read or write */

static void usage(FILE *f)
{
	fprintf(f,
"usage: asmfix [options] [IN]\n"
"Repair GNU-as (AT&T) assembly from gcc, clang or icc for the Linux kernel.\n"
"Reads IN (default: stdin), writes the result to stdout or -o OUT.\n"
"\n"
"  --passes=LIST       passes to run: all, none, or a comma list (default: all)\n"
"  --list-passes       print the passes, one per line, name first\n"
"  --keep-prefix=P     used-accessors: remove functions named P* (default __ccd_keep_)\n"
"  --data-sections     common: the compile used -fdata-sections (.bss.<name>)\n"
"  --small-data=N      common: objects of 1 to N bytes go to .sbss (mips' -G N\n"
"                      without abicalls; 32-bit ppc gcc's -G, 8 by default)\n"
"  --target=TARGET     the assembly's machine: x86_64 (default), i386, aarch64,\n"
"                      arm, riscv64, ppc64le, ppc, s390x, mipsel, mips64el,\n"
"                      m68k... or a triple; passes for other machines are skipped\n"
"  -o OUT              write to OUT (replaced only on success)\n"
"  --stats             print what each pass changed on stderr\n"
"  --check             report what would change; write nothing; exit 2 if anything would\n"
"  --help, --version\n"
"\n"
"Exit status: 0 ok, 1 input a pass cannot repair (or usage), 2 --check found\n"
"changes, 3 I/O error.  See asmfix(1).\n");
}

static void list_passes(void)
{
	for (size_t i = 0; i < asmfix_pass_count(); i++)
		printf("%-16s %s\n", asmfix_pass_name(i), asmfix_pass_help(i));
}

/* An existing output that is not a regular file (/dev/null, a FIFO). */
static int is_special(const char *out)
{
	struct stat st;

	return !stat(out, &st) && !S_ISREG(st.st_mode);
}

/*
 * The output is built in a private temp file in $TMPDIR and copied to OUT
 * only on success, so an error never leaves a truncated or changed OUT.
 * OUT is registered while it is written, so a signal removes a partial one.
 */
static int copy_to_output(int tmp_fd, const char *out)
{
	int fd, ret = 0;

	if (lseek(tmp_fd, 0, SEEK_SET) < 0)
		return error_errno("cannot rewind the temporary output");
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return error_errno("cannot open '%s'", out);
	tempfile_register(out);
	if (copy_fd(tmp_fd, fd))
		ret = error_errno("cannot write '%s'", out);
	if (close(fd) && !ret)
		ret = error_errno("cannot write '%s'", out);
	if (ret)
		tempfile_remove(out);
	else
		tempfile_forget(out);
	return ret;
}

/* --small-data=N: a byte count, as gcc's -G takes it. */
static int parse_small_data(const char *arg, unsigned long long *n)
{
	char *end;

	errno = 0;
	*n = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		return error("--small-data: not a byte count: '%s'", arg);
	return 0;
}

/* The command line, and what main opened for it. */
struct cli {
	struct asmfix_options opt;
	const char *in, *out;	/* NULL: stdin, stdout */
	const char *tmp;	/* -o's private temp file */
	int show_stats, special, in_fd, out_fd;
};

/* Options into cli; -1 to go on, else the exit code. */
static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "passes", required_argument, NULL, 'p' },
		{ "list-passes", no_argument, NULL, 'L' },
		{ "keep-prefix", required_argument, NULL, 'k' },
		{ "data-sections", no_argument, NULL, 'd' },
		{ "small-data", required_argument, NULL, 'G' },
		{ "target", required_argument, NULL, 't' },
		{ "stats", no_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (o) {
		case 'p':
			if (asmfix_parse_passes(optarg, &c->opt.passes))
				return EXIT_INPUT;
			break;
		case 'L':
			list_passes();
			return 0;
		case 'k':
			c->opt.keep_prefix = optarg;
			break;
		case 'd':
			c->opt.data_sections = 1;
			break;
		case 'G':
			if (parse_small_data(optarg, &c->opt.small_data))
				return EXIT_INPUT;
			break;
		case 't':
			if (!asmfix_target_passes(optarg))
				return EXIT_INPUT;
			c->opt.target = optarg;
			break;
		case 's':
			c->show_stats = 1;
			break;
		case 'c':
			c->opt.check_only = 1;
			break;
		case 'o':
			c->out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("asmfix (ccd-suite) %s\n", CCD_VERSION);
			return 0;
		default:
			usage(stderr);
			return EXIT_INPUT;
		}
	}
	if (optind + 1 < argc) {
		error("more than one input file");
		usage(stderr);
		return EXIT_INPUT;
	}
	if (optind < argc && strcmp(argv[optind], "-"))
		c->in = argv[optind];
	return -1;
}

/* Input and output descriptors; -1 to go on, else the exit code. */
static int open_files(struct cli *c)
{
	if (c->in && (c->in_fd = open(c->in, O_RDONLY)) < 0) {
		error_errno("cannot open '%s'", c->in);
		return EXIT_IO;
	}
	c->opt.filename = c->in ? c->in : "<stdin>";
	if (c->opt.check_only) {
		c->out_fd = open("/dev/null", O_WRONLY);
		if (c->out_fd < 0)
			die_errno("cannot open /dev/null");
	} else if (c->out && is_special(c->out)) {
		/* Never rename over /dev/null or a FIFO: write through it. */
		c->out_fd = open(c->out, O_WRONLY);
		if (c->out_fd < 0) {
			error_errno("cannot open '%s'", c->out);
			return EXIT_IO;
		}
		c->special = 1;
	} else if (c->out) {
		c->out_fd = tempfile_create("asmfix", ".s", &c->tmp);
		if (c->out_fd < 0)
			return EXIT_IO;
	}
	return -1;
}

/* After the filter: -o's copy, or the close of a special output.  ret: the filter's. */
static int finish_output(struct cli *c, int ret)
{
	if (c->out && c->special) {
		if (close(c->out_fd) && !ret) {
			error_errno("cannot write '%s'", c->out);
			ret = -1;
		}
	} else if (c->out && !c->opt.check_only) {
		if (!ret && copy_to_output(c->out_fd, c->out))
			ret = -1;
		close(c->out_fd);
		tempfile_remove(c->tmp);
	}
	return ret;
}

/* --stats lines; the number of changes. */
static unsigned long report(const struct cli *c, const struct asmfix_stats *stats)
{
	unsigned long changes = 0;

	for (size_t i = 0; i < asmfix_pass_count(); i++) {
		changes += stats->changes[i];
		if (c->show_stats && (c->opt.passes & (1u << i)))
			fprintf(stderr, "%s: %s: %lu change%s\n", c->opt.filename,
				asmfix_pass_name(i), stats->changes[i],
				stats->changes[i] == 1 ? "" : "s");
	}
	return changes;
}

int main(int argc, char **argv)
{
	struct cli c = { .in_fd = 0, .out_fd = 1 };
	struct asmfix_stats stats;
	off_t reserved = -1;
	unsigned long changes;
	int ret;

	warn_set_progname(argv[0]);
	warn_set_die_hook(tempfile_cleanup_all);
	c.opt.passes = asmfix_all_passes();
	ret = parse_args(&c, argc, argv);
	/* --stats lists only what runs: another machine's passes do not. */
	c.opt.passes &= asmfix_target_passes(c.opt.target);
	if (ret < 0)
		ret = open_files(&c);
	if (ret >= 0)
		return ret;
	/*
	 * Standard output that is a file: reserve blocks for an output as long
	 * as the input.  Not for the temporary -o file, deleted right after
	 * (copy_to_output reserves for OUT).
	 */
	if (!c.out && !c.opt.check_only)
		reserved = fd_reserve(c.out_fd, fd_bytes_left(c.in_fd));
	ret = asmfix_filter(&c.opt, c.in_fd, c.out_fd, &stats);
	fd_unreserve(c.out_fd, reserved);
	ret = finish_output(&c, ret);
	changes = report(&c, &stats);
	if (ret < 0)
		return EXIT_IO;
	if (ret > 0)
		return EXIT_INPUT;
	return c.opt.check_only && changes ? EXIT_CHANGES : 0;
}
