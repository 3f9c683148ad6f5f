/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the guest's console as it comes: protocol lines (protocol.h)
 * go into the result, everything else is kept for the messages a failed
 * boot needs (a panic, QEMU's own complaint, the console's last lines).
 */
#ifndef KBENCH_CONSOLE_H
#define KBENCH_CONSOLE_H

#include "gcov.h"
#include "result.h"
#include "strbuf.h"

struct console {
	struct kb_result *res;
	int begun, ended, end_ok;
	int bad_version;		/* a BEGIN of another protocol version */
	double ns_per_insn;		/* the BEGIN's: what the guest divided its clock by */
	int cpus;			/* the BEGIN's: CPUs the guest saw online (0: unsaid) */
	int workload_status;		/* -1: no workload ran */
	struct strvec fails;		/* "name: message" of KBENCH-FAIL lines */
	struct strvec ops;		/* "name o1,o2,..." of KBENCH-OPS lines */
	struct strvec output;		/* "name line" of KBENCH-OUTPUT lines */
	char *last_row;			/* the last benchmark that reported */
	char *panic;			/* the first "Kernel panic" line */
	char *qemu_error;		/* the first line QEMU itself wrote */
	struct strbuf line;		/* the line being received */
	struct strbuf log;		/* the whole console, up to a limit */
	struct gcov_set gcov;		/* profile files (kbench_gcov=1) */
	int quiet;			/* no progress on stderr */
};

void console_init(struct console *c, struct kb_result *res);
void console_feed(struct console *c, const char *buf, size_t len);
/* The last line if it had no newline. */
void console_flush(struct console *c);
/* Print the console's last lines, indented, on stderr. */
void console_tail(const struct console *c, int lines);
void console_release(struct console *c);

#endif
