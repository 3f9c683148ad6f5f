// SPDX-License-Identifier: GPL-2.0
/* asmfix: the standalone filter over the asmfix library. */
#include "asmfix.h"
#include "ccd-config.h"
#include "fileio.h"
#include "run-command.h"
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
"  --target=T          i386 or x86_64 (default: guess)\n"
"  --keep-prefix=P     used-accessors: remove functions named P* (default __ccd_keep_)\n"
"  --data-sections     common: the compile used -fdata-sections (.bss.<name>)\n"
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "passes", required_argument, NULL, 'p' },
		{ "list-passes", no_argument, NULL, 'L' },
		{ "target", required_argument, NULL, 't' },
		{ "keep-prefix", required_argument, NULL, 'k' },
		{ "data-sections", no_argument, NULL, 'd' },
		{ "stats", no_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct asmfix_options opt = { 0 };
	struct asmfix_stats stats;
	const char *tmp = NULL;
	const char *out = NULL, *in = NULL;
	int c, show_stats = 0, special = 0, in_fd = 0, out_fd = 1, ret;
	off_t reserved = -1;
	unsigned long changes = 0;

	warn_set_progname(argv[0]);
	warn_set_die_hook(tempfile_cleanup_all);
	opt.passes = asmfix_all_passes();
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (asmfix_parse_passes(optarg, &opt.passes))
				return EXIT_INPUT;
			break;
		case 'L':
			list_passes();
			return 0;
		case 't':
			if (!strcmp(optarg, "i386"))
				opt.target = ASMFIX_TARGET_I386;
			else if (!strcmp(optarg, "x86_64"))
				opt.target = ASMFIX_TARGET_X86_64;
			else {
				error("unknown target '%s' (i386 or x86_64)", optarg);
				return EXIT_INPUT;
			}
			break;
		case 'k':
			opt.keep_prefix = optarg;
			break;
		case 'd':
			opt.data_sections = 1;
			break;
		case 's':
			show_stats = 1;
			break;
		case 'c':
			opt.check_only = 1;
			break;
		case 'o':
			out = optarg;
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
		in = argv[optind];
	if (in) {
		in_fd = open(in, O_RDONLY);
		if (in_fd < 0) {
			error_errno("cannot open '%s'", in);
			return EXIT_IO;
		}
	}
	opt.filename = in ? in : "<stdin>";
	if (opt.check_only) {
		out_fd = open("/dev/null", O_WRONLY);
		if (out_fd < 0)
			die_errno("cannot open /dev/null");
	} else if (out && is_special(out)) {
		/* Never rename over /dev/null or a FIFO: write through it. */
		out_fd = open(out, O_WRONLY);
		if (out_fd < 0) {
			error_errno("cannot open '%s'", out);
			return EXIT_IO;
		}
		special = 1;
	} else if (out) {
		out_fd = tempfile_create("asmfix", ".s", &tmp);
		if (out_fd < 0)
			return EXIT_IO;
	}

	/*
	 * Standard output that is a file: reserve blocks for an output as long
	 * as the input.  Not for the temporary -o file, deleted right after
	 * (copy_to_output reserves for OUT).
	 */
	if (!out && !opt.check_only)
		reserved = fd_reserve(out_fd, fd_bytes_left(in_fd));
	ret = asmfix_filter(&opt, in_fd, out_fd, &stats);
	fd_unreserve(out_fd, reserved);

	if (out && special) {
		if (close(out_fd) && !ret) {
			error_errno("cannot write '%s'", out);
			ret = -1;
		}
	} else if (out && !opt.check_only) {
		if (!ret && copy_to_output(out_fd, out))
			ret = -1;
		close(out_fd);
		tempfile_remove(tmp);
	}
	for (size_t i = 0; i < asmfix_pass_count(); i++) {
		changes += stats.changes[i];
		if (show_stats && (opt.passes & (1u << i)))
			fprintf(stderr, "%s: %s: %lu change%s\n", opt.filename, asmfix_pass_name(i),
				stats.changes[i], stats.changes[i] == 1 ? "" : "s");
	}
	if (ret < 0)
		return EXIT_IO;
	if (ret > 0)
		return EXIT_INPUT;
	return opt.check_only && changes ? EXIT_CHANGES : 0;
}
