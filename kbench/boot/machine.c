// SPDX-License-Identifier: GPL-2.0
/*
 * The machines kbench boots.  A kernel image names its machine in its
 * header (x86's boot protocol "HdrS", arm64's Image magic), so a user
 * gives only the image; --arch overrides.  Programs for the guest are
 * checked against the machine before QEMU starts: an x86 init in an arm64
 * initramfs would only show as a kernel that "did not boot".
 */
#include "machine.h"
#include "strbuf.h"
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
/* The virt boards; the guest's power-off goes through PSCI (arm) or SBI (riscv). */
static const char *const virt_args[] = { "-M", "virt", NULL };
/* ARMv5, Debian armel's baseline; device-tree only: dtb below. */
static const char *const versatile_args[] = { "-M", "versatilepb", NULL };
static const char *const pseries_args[] = { "-M", "pseries", NULL };
static const char *const s390_args[] = { "-M", "s390-ccw-virtio", NULL };
static const char *const malta_args[] = { "-M", "malta", NULL };

static const char *const bzimage[] = { "bzImage", NULL };
static const char *const image[] = { "Image", NULL };
static const char *const zimage[] = { "zImage", NULL };
static const char *const zimage_dtbs[] = { "zImage", "dtbs", NULL };
static const char *const vmlinux[] = { "vmlinux", NULL };

#define C32 ELFCLASS32
#define C64 ELFCLASS64
#define LE ELFDATA2LSB
#define BE ELFDATA2MSB
/* e_flags of arm's EABI: the float ABI a program was built for. */
#define ARM_HARD 0x400u
#define ARM_SOFT 0x200u
/* log2 of the ns an instruction counts on Malta: see the table. */
#define MALTA_SHIFT 3
/* QEMU makes Malta's CPUs, but these cores have no CPS for Linux to start them with. */
#define MALTA_NO_SMP "Malta's cores here have no CPS to start more CPUs with"

static const struct kb_machine machines[] = {
	/*
	 * nolapic_timer: the local APIC timer is calibrated by spinning for
	 * a tenth of a second, which under icount is most of the boot; the
	 * PIT ticks instead.
	 */
	{ "x86_64", "amd64", "x86_64", "x86_64-linux-gnu", EM_X86_64, C64, LE, 0,
	  "qemu-system-x86_64", x86_args, NULL, NULL, "ttyS0", "nolapic_timer",
	  KBENCH_CONFIG_TEXT, "x86-64", "qemu-x86_64",
	  "arch/x86/boot/bzImage", bzimage, "CONFIG_64BIT=y\n", 0, 0, NULL, 1, "tsc=reliable" },
	{ "aarch64", "arm64", "arm64", "aarch64-linux-gnu", EM_AARCH64, C64, LE, 0,
	  "qemu-system-aarch64", virt_args, NULL, "cortex-a57", "ttyAMA0", "",
	  KBENCH_CONFIG_ARM64_TEXT, "arm64", "qemu-aarch64",
	  "arch/arm64/boot/Image", image, "", 0, 0, NULL, 0, NULL },
	{ "armhf", "armhf", "arm", "arm-linux-gnueabihf", EM_ARM, C32, LE, ARM_HARD,
	  "qemu-system-arm", virt_args, NULL, "cortex-a15", "ttyAMA0", "",
	  KBENCH_CONFIG_ARMHF_TEXT, NULL, "qemu-arm",
	  "arch/arm/boot/zImage", zimage, "", 0, 0, NULL, 0, NULL },
	{ "armel", "armel", "arm", "arm-linux-gnueabi", EM_ARM, C32, LE, ARM_SOFT,
	  "qemu-system-arm", versatile_args, "versatile-pb.dtb", "arm926", "ttyAMA0", "",
	  KBENCH_CONFIG_ARMEL_TEXT, NULL, "qemu-arm",
	  "arch/arm/boot/zImage", zimage_dtbs, "", 0, 0,
	  "the Versatile/PB board has one ARM926 and no SMP", 0, NULL },
	{ "ppc64el", "ppc64el", "powerpc", "powerpc64le-linux-gnu", EM_PPC64, C64, LE, 0,
	  "qemu-system-ppc64", pseries_args, NULL, NULL, "hvc0", "",
	  KBENCH_CONFIG_PPC64EL_TEXT, NULL, "qemu-ppc64le",
	  "vmlinux", vmlinux, "", 0, 256, NULL, 0, NULL },
	{ "s390x", "s390x", "s390", "s390x-linux-gnu", EM_S390, C64, BE, 0,
	  "qemu-system-s390x", s390_args, NULL, NULL, "ttysclp0", "",
	  KBENCH_CONFIG_S390X_TEXT, NULL, "qemu-s390x",
	  "arch/s390/boot/bzImage", bzimage, "", 0, 0, NULL, 0, NULL },
	/*
	 * Malta under icount.  Its CP0 timer counts a tick per 6 ns.  At one
	 * ns per instruction the kernel's check of the timer interrupt
	 * (mfc0 Count, mtc0 Compare of the same value) mostly falls within
	 * one tick, where QEMU fires at once and the check fails: the PIT
	 * ticks instead, Compare is never written again, and 2^32 ticks
	 * later QEMU re-arms that timer for the instant it is in, forever.
	 * At 8 ns an instruction the count always moves on.  nowait: a CPU
	 * halted in WAIT is not woken by the timer under icount.
	 */
	{ "mips64el", "mips64el", "mips", "mips64el-linux-gnuabi64", EM_MIPS, C64, LE, 0,
	  "qemu-system-mips64el", malta_args, NULL, "MIPS64R2-generic", "ttyS0", "nowait",
	  KBENCH_CONFIG_MIPS64EL_TEXT, NULL, "qemu-mips64el",
	  "vmlinux", vmlinux, "", MALTA_SHIFT, 0, MALTA_NO_SMP, 0, NULL },
	{ "mipsel", "mipsel", "mips", "mipsel-linux-gnu", EM_MIPS, C32, LE, 0,
	  "qemu-system-mipsel", malta_args, NULL, NULL, "ttyS0", "nowait",
	  KBENCH_CONFIG_MIPSEL_TEXT, NULL, "qemu-mipsel",
	  "vmlinux", vmlinux, "", MALTA_SHIFT, 0, MALTA_NO_SMP, 0, NULL },
	{ "riscv64", "riscv64", "riscv", "riscv64-linux-gnu", EM_RISCV, C64, LE, 0,
	  "qemu-system-riscv64", virt_args, NULL, NULL, "ttyS0", "",
	  KBENCH_CONFIG_RISCV64_TEXT, NULL, "qemu-riscv64",
	  "arch/riscv/boot/Image", image, "", 0, 0, NULL, 0, NULL },
};

#define NMACHINES (sizeof(machines) / sizeof(*machines))

const struct kb_machine *machine_named(const char *name)
{
	const struct kb_machine *by_kbuild = NULL;
	int kbuild_matches = 0;

	for (size_t i = 0; i < NMACHINES; i++) {
		const struct kb_machine *m = &machines[i];

		if (!strcmp(name, m->name) || !strcmp(name, m->debian))
			return m;
		if (!strcmp(name, m->kernel_arch)) {
			by_kbuild = m;
			kbuild_matches++;
		}
	}
	/* arm, mips: Kbuild's name is more than one of Debian's. */
	return kbuild_matches == 1 ? by_kbuild : NULL;
}

void machine_unknown(const char *name, struct strbuf *why)
{
	struct strbuf which = STRBUF_INIT;

	for (size_t i = 0; i < NMACHINES; i++)
		if (!strcmp(name, machines[i].kernel_arch))
			strbuf_addf(&which, "%s%s", which.len ? " or " : "", machines[i].debian);
	if (which.len)
		strbuf_addf(why, "--arch=%s is more than one machine: say %s", name, which.buf);
	else
		strbuf_addf(why, "--arch is one of %s, not '%s'", machine_names(), name);
	strbuf_release(&which);
}

const char *machine_names(void)
{
	return "amd64 (x86_64), arm64, armhf, armel, ppc64el, s390x, mips64el, mipsel, riscv64";
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

/* An ELF vmlinux (ppc64el, mips, s390x boot one): the machine its header names. */
static const struct kb_machine *machine_of_elf(const unsigned char *h)
{
	unsigned em;

	if (memcmp(h, ELFMAG, SELFMAG))
		return NULL;
	em = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19] : h[18] | (unsigned)h[19] << 8;
	for (size_t i = 0; i < NMACHINES; i++) {
		const struct kb_machine *m = &machines[i];

		/* An x86 or arm vmlinux is not what QEMU boots them from. */
		if (m->elf_machine == em && m->elf_class == h[EI_CLASS] &&
		    m->elf_data == h[EI_DATA] && em != EM_X86_64 && em != EM_ARM &&
		    em != EM_AARCH64)
			return m;
	}
	return NULL;
}

const struct kb_machine *machine_of_image(const char *path)
{
	static const unsigned char zimage_magic[] = { 0x18, 0x28, 0x6f, 0x01 };
	unsigned char h[0x210];
	const struct kb_machine *m;

	if (read_head(path, h, sizeof(h)))
		return NULL;
	if (!memcmp(h + 0x202, "HdrS", 4))
		return &machines[0];
	if (!memcmp(h + 0x38, "ARM\x64", 4))
		return &machines[1];
	if (!memcmp(h + 0x38, "RSC\x05", 4))
		return machine_named("riscv64");
	/* A zImage does not say its float ABI: armhf, unless --arch=armel. */
	if (!memcmp(h + 0x24, zimage_magic, 4))
		return machine_named("armhf");
	if ((m = machine_of_elf(h)))
		return m;
	error("kernel %s is not an image kbench can tell (an x86 bzImage, an arm64 or riscv "
	      "Image, an arm zImage, a ppc64el or mips vmlinux); --arch boots it anyway: %s",
	      path, machine_names());
	return NULL;
}

/*
 * x86's boot protocol: from version 2.12 (Linux 3.8) the setup header's
 * xloadflags say whether the kernel has the 64-bit entry point
 * (XLF_KERNEL_64), which only a 64-bit kernel has.
 */
#define HDR_VERSION 0x206
#define HDR_XLOADFLAGS 0x236
#define XLF_KERNEL_64 0x1

int machine_check_image(const struct kb_machine *m, const char *path)
{
	unsigned char h[0x240];
	unsigned version;

	if (m->elf_machine != EM_X86_64)
		return 0;
	if (read_head(path, h, sizeof(h)))
		return -1;
	if (memcmp(h + 0x202, "HdrS", 4))
		return 0;
	version = h[HDR_VERSION] | (unsigned)h[HDR_VERSION + 1] << 8;
	if (version < 0x20c || (h[HDR_XLOADFLAGS] & XLF_KERNEL_64))
		return 0;
	return error("kernel %s is a 32-bit x86 kernel (its boot header has no 64-bit entry "
		     "point); kbench runs x86_64 kernels: configure it with CONFIG_64BIT=y (the "
		     "fragment `kbench config` prints has it) or make ARCH=x86_64", path);
}

/* e_flags of the ELF header in h (52 bytes or more read). */
static unsigned elf_flags(const unsigned char *h)
{
	/* After e_entry, e_phoff, e_shoff: 4 or 8 bytes each by class. */
	size_t off = h[EI_CLASS] == ELFCLASS64 ? 48 : 36;

	if (h[EI_DATA] == ELFDATA2MSB)
		return (unsigned)h[off] << 24 | (unsigned)h[off + 1] << 16 | (unsigned)h[off + 2] << 8 |
		       h[off + 3];
	return h[off] | (unsigned)h[off + 1] << 8 | (unsigned)h[off + 2] << 16 |
	       (unsigned)h[off + 3] << 24;
}

int machine_check_program(const struct kb_machine *m, const char *path, const char *what,
			  const char *option)
{
	unsigned char h[64];
	unsigned em;

	if (read_head(path, h, sizeof(h)))
		return -1;
	if (memcmp(h, ELFMAG, SELFMAG))
		return error("%s %s is not an ELF program (%s)", what, path, option);
	em = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19] : h[18] | (unsigned)h[19] << 8;
	if (em != m->elf_machine || h[EI_CLASS] != m->elf_class || h[EI_DATA] != m->elf_data ||
	    (m->arm_float && !(elf_flags(h) & m->arm_float)))
		return error("%s %s is not an %s program (ELF machine %u, %d-bit, %s-endian%s), "
			     "the machine is %s: give %s", what, path, m->name, em,
			     h[EI_CLASS] == ELFCLASS64 ? 64 : 32,
			     h[EI_DATA] == ELFDATA2MSB ? "big" : "little",
			     em == EM_ARM ? (elf_flags(h) & ARM_HARD ? ", hard-float" : ", soft-float") : "",
			     m->debian, option);
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
