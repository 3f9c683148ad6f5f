/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machines kbench boots (machine.c): how a kernel image says which it
 * is, how QEMU runs it, and which guest and shell go into its initramfs.
 */
#ifndef KBENCH_MACHINE_H
#define KBENCH_MACHINE_H

struct kb_machine {
	const char *name;	/* the guest's suffix: x86_64, aarch64, armhf, ... */
	const char *debian;	/* Debian's name: amd64, arm64, armhf, ... */
	const char *kernel_arch;	/* Kbuild's ARCH: x86_64, arm64, arm, ... */
	const char *triple;	/* the GNU triple: the cross sysroot /usr/TRIPLE */
	unsigned short elf_machine;	/* EM_* of the guest and the shell */
	unsigned char elf_class, elf_data;	/* ELFCLASS*, ELFDATA2*: of the guest too */
	unsigned arm_float;	/* arm: the e_flags float ABI bit the guest has (0: none) */
	const char *qemu;	/* the default QEMU binary */
	const char *const *args;	/* the board and its exit device */
	const char *dtb;	/* the board's device tree, beside the image in dts/ (or NULL) */
	const char *cpu;	/* -cpu under icount (NULL: QEMU's default) */
	const char *console;	/* the kernel's console= */
	const char *append;	/* what else its kernel needs (or "") */
	const char *config;	/* `kbench config`: its fragment */
	const char *model;	/* the cost model's default profile (NULL: no markers) */
	const char *qemu_user;	/* its QEMU user mode: `kbench calibrate` */
	const char *image;	/* the image below the build directory */
	const char *const *targets;	/* what `make` builds for it */
	const char *extra_config;	/* what the fragment leaves to the architecture */
	unsigned icount_shift;	/* -icount shift: log2 of the ns an instruction counts */
	unsigned mem_align;	/* MB the board's memory must be a multiple of (0: any) */
	const char *no_smp;	/* why the board boots one CPU only (NULL: it takes -smp) */
	/*
	 * -smp N,sockets=N: a CPU per package.  On x86 the firmware's MP table
	 * (the kernel's only list of CPUs without ACPI) names one CPU a package.
	 */
	int smp_sockets;
	/*
	 * What its kernel needs with several CPUs under icount (or NULL).
	 * x86: tsc=reliable; the boot's check finds the CPUs' TSCs apart (the
	 * round-robin lets one CPU's instructions run ahead) and falls back to
	 * jiffies, whose millisecond steps leave most rows at 0.
	 */
	const char *smp_append;
};

/*
 * Where a fragment's last block begins: the kernel people run (SMP, -O2,
 * SLUB).  What comes before it is what kbench needs to boot and measure.
 */
#define KB_PEOPLE_RUN "#\n# The kernel people run:"

/* By Debian's, Kbuild's (where only one machine has it) or the guest's name
 * (amd64, x86_64; arm64, aarch64; armhf); NULL if unknown or ambiguous. */
const struct kb_machine *machine_named(const char *name);
/* Why machine_named() did not take name, for --arch's usage error. */
struct strbuf;
void machine_unknown(const char *name, struct strbuf *why);
/* The names, for messages. */
const char *machine_names(void);
/* The machine kbench itself was built for: the guest without a suffix. */
const struct kb_machine *machine_host(void);
/* What the image is (an x86 bzImage, an arm64 or riscv Image, an arm zImage, an
 * ELF vmlinux); NULL and an error if unknown or unreadable. */
const struct kb_machine *machine_of_image(const char *path);
/* 0 if path is an ELF program for m; otherwise an error naming what it is for. */
/* -1 (said) if the image at path cannot be m's kernel: a 32-bit x86 bzImage. */
int machine_check_image(const struct kb_machine *m, const char *path);
int machine_check_program(const struct kb_machine *m, const char *path, const char *what,
			  const char *option);
/* The guest: --guest; for the host's machine $KBENCH_GUEST; beside kbench; installed. */
const char *guest_path(const char *opt, const struct kb_machine *m);
/* The fork_sh row's shell: --busybox, /bin/busybox or /usr/TRIPLE/bin/busybox. */
const char *busybox_path(const char *opt, const struct kb_machine *m);

#endif
