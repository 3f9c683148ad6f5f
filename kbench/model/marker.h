/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker instructions the guest executes at the edges of each sample
 * and the cost model (plugin.c) recognises at translation time.  They are
 * no-ops to the CPU and to QEMU without the plugin, in encodings no
 * compiler or assembler emits for padding: x86's long NOP with a
 * displacement of 0x4b42000N (padding NOPs have 0), and arm64 HINT
 * numbers that no architecture version has allocated (they execute as
 * NOP).
 *
 *   ROW    a row begins (its warm-up run and its samples follow)
 *   START  a sample's timed region begins
 *   END    it ends: the plugin writes that sample's counters
 */
#ifndef KBENCH_MODEL_MARKER_H
#define KBENCH_MODEL_MARKER_H

enum kb_marker { KB_MARK_NONE, KB_MARK_START, KB_MARK_END, KB_MARK_ROW };

/* x86: 0f 1f 80 <disp32>, nopl disp32(%rax) / (%eax). */
#define KB_MARK_X86_DISP(m)	(0x4b420000u + (unsigned)(m))
/* arm64: HINT #imm, 0xd503201f | imm << 5. */
#define KB_MARK_ARM64_IMM(m)	(0x68u + (unsigned)(m))
#define KB_MARK_ARM64_INSN(m)	(0xd503201fu | KB_MARK_ARM64_IMM(m) << 5)

#if defined(__x86_64__) || defined(__i386__)
#define KB_MARK_ASM_START ".byte 0x0f,0x1f,0x80,0x01,0x00,0x42,0x4b"
#define KB_MARK_ASM_END ".byte 0x0f,0x1f,0x80,0x02,0x00,0x42,0x4b"
#define KB_MARK_ASM_ROW ".byte 0x0f,0x1f,0x80,0x03,0x00,0x42,0x4b"
#elif defined(__aarch64__)
#define KB_MARK_ASM_START "hint #0x69"
#define KB_MARK_ASM_END "hint #0x6a"
#define KB_MARK_ASM_ROW "hint #0x6b"
#endif

#ifdef KB_MARK_ASM_START
#define kb_mark_start() __asm__ volatile(KB_MARK_ASM_START ::: "memory")
#define kb_mark_end() __asm__ volatile(KB_MARK_ASM_END ::: "memory")
#define kb_mark_row() __asm__ volatile(KB_MARK_ASM_ROW ::: "memory")
#else
#define kb_mark_start() do { } while (0)
#define kb_mark_end() do { } while (0)
#define kb_mark_row() do { } while (0)
#endif

#endif
