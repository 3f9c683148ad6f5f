// SPDX-License-Identifier: GPL-2.0
/*
 * The machines kbench boots.  A kernel image names its machine in its
 * header (x86's boot protocol "HdrS", arm64's Image magic), so a user
 * gives only the image; --arch overrides.  Programs for the guest are
 * checked against the machine before QEMU starts: an x86 init in an arm64
 * initramfs would only show as a kernel that "did not boot".
 */
#include "machine.h"
#include "warn.h"
#include "kbench-config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* QEMU's isa-debug-exit: the guest's outb ends QEMU with its status. */
static const char *const x86_args[] = { "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", NULL };
/* The virt board; the guest's power-off goes through PSCI. */
static const char *const virt_args[] = { "-M", "virt", NULL };

static const struct kb_machine machines[] = {
	/*
	 * nolapic_timer: the local APIC timer is calibrated by spinning for
	 * a tenth of a second, which under icount is most of the boot; the
	 * PIT ticks instead.
	 */
	{ "x86_64", "x86_64", "x86_64-linux-gnu", EM_X86_64, "qemu-system-x86_64", x86_args,
	  NULL, "ttyS0", "nolapic_timer", KBENCH_CONFIG_TEXT, "x86-64", "qemu-x86_64" },
	{ "aarch64", "arm64", "aarch64-linux-gnu", EM_AARCH64, "qemu-system-aarch64", virt_args,
	  "cortex-a57", "ttyAMA0", "", KBENCH_CONFIG_ARM64_TEXT, "arm64", "qemu-aarch64" },
};

const struct kb_machine *machine_named(const char *name)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(*machines); i++)
		if (!strcmp(name, machines[i].name) || !strcmp(name, machines[i].kernel_arch))
			return &machines[i];
	return NULL;
}

const char *machine_names(void)
{
	return "x86_64, arm64";
}

const struct kb_machine *machine_host(void)
{
#if defined(__aarch64__)
	return &machines[1];
#else
	return &machines[0];
#endif
}

static int read_head(const char *path, unsigned char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return error_errno("cannot read %s", path);
	/* A shorter file reads as zeros: it matches no header. */
	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot read %s", path);
			close(fd);
			return -1;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	memset(buf + got, 0, len - got);
	return 0;
}

const struct kb_machine *machine_of_image(const char *path)
{
	unsigned char h[0x210];

	if (read_head(path, h, sizeof(h)))
		return NULL;
	if (!memcmp(h + 0x202, "HdrS", 4))
		return &machines[0];
	if (!memcmp(h + 0x38, "ARM\x64", 4))
		return &machines[1];
	error("kernel %s is not an x86 bzImage or an arm64 Image (--arch boots it anyway: %s)",
	      path, machine_names());
	return NULL;
}

int machine_check_program(const struct kb_machine *m, const char *path, const char *what,
			  const char *option)
{
	unsigned char h[20];
	unsigned em;

	if (read_head(path, h, sizeof(h)))
		return -1;
	if (memcmp(h, ELFMAG, SELFMAG))
		return error("%s %s is not an ELF program (%s)", what, path, option);
	em = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19] : h[18] | (unsigned)h[19] << 8;
	if (em != m->elf_machine)
		return error("%s %s is not an %s program (ELF machine %u), the kernel is %s: "
			     "give %s", what, path, m->name, em, m->kernel_arch, option);
	return 0;
}

const char *guest_path(const char *opt, const struct kb_machine *m)
{
	static char beside[PATH_MAX];
	static char installed[PATH_MAX];
	const char *env = getenv("KBENCH_GUEST");
	const char *suffix = m == machine_host() ? "" : "-";
	const char *name = *suffix ? m->name : "";
	ssize_t n;

	if (opt)
		return opt;
	if (!*suffix && env && *env)
		return env;
	/* Run from the build tree: the guests are built beside kbench. */
	n = readlink("/proc/self/exe", beside, sizeof(beside) - 64);
	if (n > 0) {
		char *slash;

		beside[n] = '\0';
		slash = strrchr(beside, '/');
		if (slash) {
			snprintf(slash, 64, "/guest/kbench-guest%s%s", suffix, name);
			if (!access(beside, X_OK))
				return beside;
		}
	}
	snprintf(installed, sizeof(installed), "%s/kbench-guest%s%s", KBENCH_LIBEXECDIR, suffix,
		 name);
	return installed;
}

const char *busybox_path(const char *opt, const struct kb_machine *m)
{
	static char cross[PATH_MAX];

	if (opt)
		return opt;
	if (m == machine_host())
		return "/bin/busybox";
	snprintf(cross, sizeof(cross), "/usr/%s/bin/busybox", m->triple);
	return cross;
}
