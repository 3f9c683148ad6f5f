// SPDX-License-Identifier: GPL-2.0
/*
 * The whole userspace of the test kernels: a static /init.
 *
 * It loads the modules named in /modules (one file name per line), reports
 * each result, copies the kernel-log lines that mention a test marker to the
 * console (so a failed insmod's reason is visible even with a quiet console),
 * prints the boot marker and ends QEMU: first through isa-debug-exit (an outb
 * to port 0xf4, needs ioperm), else by a reboot, which -no-reboot turns into
 * QEMU exiting.  Built with gcc -static (-m32 for i386 kernels, the cross
 * gcc for other architectures).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BOOT_MARKER "CCD-KERNEL-BOOT-OK"
#define DEBUG_EXIT_PORT 0xf4

static const char *const log_markers[] = { "ccdtest", "-fno-common", NULL };

static void load_module(const char *name)
{
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	long ret;

	if (fd < 0) {
		printf("CCD-INIT: insmod %s: failed: open: %s\n", name, strerror(errno));
		return;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret)
		printf("CCD-INIT: insmod %s: failed: %s (errno %d)\n", name,
		       strerror(errno), errno);
	else
		printf("CCD-INIT: insmod %s: ok\n", name);
	close(fd);
	fflush(stdout);
}

static void load_modules(void)
{
	FILE *f = fopen("/modules", "r");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			load_module(line);
	}
	fclose(f);
}

static int has_marker(const char *line)
{
	for (const char *const *m = log_markers; *m; m++)
		if (strstr(line, *m))
			return 1;
	return 0;
}

/* The kernel log, filtered: klogctl(SYSLOG_ACTION_READ_ALL) needs no /proc. */
static void report_log(void)
{
	static char buf[1 << 16];
	int len = klogctl(3, buf, sizeof(buf) - 1);
	char *line, *save;

	if (len < 0) {
		printf("CCD-INIT: klogctl: %s\n", strerror(errno));
		return;
	}
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (has_marker(line))
			printf("CCD-DMESG: %s\n", line);
}

int main(void)
{
	printf("CCD-INIT: started\n");
	fflush(stdout);
	load_modules();
	report_log();
	printf(BOOT_MARKER "\n");
	fflush(stdout);
	sync();
#if defined(__x86_64__) || defined(__i386__)
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb(0, DEBUG_EXIT_PORT);	/* QEMU exits with status 1 */
#endif
	reboot(RB_AUTOBOOT);	/* -no-reboot: QEMU exits (PSCI or SBI elsewhere) */
	for (;;)
		pause();
}
