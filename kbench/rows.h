/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every row kbench measures, in the order the guest runs them: one list
 * for both sides.  The guest runs them (the table in each of its files
 * expands these with KB_BENCH, bench.h); the host knows their names and
 * groups (pgo's --train-rows, compare's --trained) without a copy.
 *
 *   X(name, unit, group, train, iters, quick, run, arg1, arg2)
 *
 * train is 1 for the rows `kbench pgo` trains on by default: every other
 * row through the table, so that both halves have rows of every group
 * (the held-out half too covers processes, IPC, context switches, files
 * and VM); never the memory controls.  The rest is the guest's struct
 * bench: iterations per sample, per sample under --quick (0: a tenth),
 * the function and its two parameters; only the guest expands those.
 */
#ifndef KBENCH_ROWS_H
#define KBENCH_ROWS_H

#define KB_ROWS_PROC(X) \
	X("null_call", "us", "proc", 1, 75000, 0, null_call, 0, 0) \
	X("null_io", "us", "proc", 0, 20000, 0, null_io, 0, 0) \
	X("stat", "us", "proc", 1, 5000, 0, stat_file, 0, 0) \
	X("open_close", "us", "proc", 0, 4000, 0, open_close, 0, 0) \
	X("sig_install", "us", "proc", 1, 40000, 0, sig_install, 0, 0) \
	X("sig_handle", "us", "proc", 0, 4000, 0, sig_handle, 0, 0) \
	X("fork_exit", "us", "proc", 1, 120, 0, fork_exit, 0, 0) \
	X("fork_exec", "us", "proc", 0, 40, 0, fork_exec, 0, 0) \
	X("fork_sh", "us", "proc", 1, 20, 0, fork_sh, 0, 0)

#define KB_ROWS_IPC(X) \
	X("pipe_lat", "us", "ipc-lat", 0, 2500, 0, latency, PIPE, 0) \
	X("unix_lat", "us", "ipc-lat", 1, 3000, 0, latency, UNIX, 0) \
	X("tcp_lat", "us", "ipc-lat", 0, 800, 0, latency, TCP, 20000) \
	X("tcp_connect", "us", "ipc-lat", 1, 400, 0, tcp_connect, 0, 22000) \
	X("pipe_bw", "MB/s", "ipc-bw", 0, 400, 400, bandwidth, PIPE, 0) \
	X("unix_bw", "MB/s", "ipc-bw", 1, 400, 0, bandwidth, UNIX, 0) \
	X("tcp_bw", "MB/s", "ipc-bw", 0, 400, 0, bandwidth, TCP, 21000)

#define KB_ROWS_CTX(X) \
	X("ctx_2p_0k", "us", "ctx", 1, 2500, 0, ring, 2, 0) \
	X("ctx_8p_4k", "us", "ctx", 0, 250, 150, ring, 8, 4) \
	X("ctx_16p_8k", "us", "ctx", 1, 100, 60, ring, 16, 8)

#define KB_ROWS_FSVM(X) \
	X("file_create_0k", "us", "fs-vm", 0, 1000, 0, file_rows, 0, 0) \
	X("file_delete_0k", "us", "fs-vm", 1, 1000, 0, file_rows, 0, 1) \
	X("file_create_10k", "us", "fs-vm", 0, 800, 0, file_rows, 10, 0) \
	X("file_delete_10k", "us", "fs-vm", 1, 800, 0, file_rows, 10, 1) \
	X("mmap", "us", "fs-vm", 0, 100, 0, mmap_lat, 1024, 0) \
	X("prot_fault", "us", "fs-vm", 1, 4000, 0, prot_fault, 0, 0) \
	X("page_fault", "us", "fs-vm", 0, 8000, 0, page_fault, 1024, 0) \
	X("page_fault_anon", "us", "fs-vm", 1, 5000, 0, page_fault_anon, 1024, 0) \
	X("select_100", "us", "fs-vm", 0, 1500, 0, select_fds, 100, 0)

/*
 * On every CPU online (N, whatever it is; the names do not change with
 * it): the par_ rows are rows above as N pinned copies at once, us per
 * operation of one copy; the others share a pipe or socket across two
 * CPUs, a futex, a directory, an address space (smp.c).  Then the noise
 * the kernel leaves a busy loop per 1 ms quantum on every CPU (ftq.c).
 */
#define KB_ROWS_SMP(X) \
	X("par_null_call", "us", "smp", 0, 20000, 0, par, NULL_CALL, 0) \
	X("par_fork_exit", "us", "smp", 0, 60, 20, par, FORK_EXIT, 0) \
	X("par_open_close", "us", "smp", 0, 2000, 0, par, OPEN_CLOSE, 0) \
	X("par_page_fault", "us", "smp", 0, 4000, 0, par, PAGE_FAULT, 1024) \
	X("par_file_create_0k", "us", "smp", 0, 500, 0, par, FILE_CREATE, 0) \
	X("xcpu_pipe_lat", "us", "smp", 0, 2000, 0, xcpu_lat, 0, 0) \
	X("xcpu_unix_lat", "us", "smp", 0, 2000, 0, xcpu_lat, 1, 0) \
	X("futex_ring", "us", "smp", 0, 2000, 0, futex_ring, 0, 0) \
	X("shared_dir", "us", "smp", 0, 500, 0, shared_dir, 0, 0) \
	X("shared_mm_fault", "us", "smp", 0, 2000, 0, shared_mm_fault, 0, 1024)

#define KB_ROWS_FTQ(X) \
	X("ftq_noise", "us", "smp", 0, 100, 20, ftq, 1000, 0) \
	X("ftq_worst", "us", "smp", 0, 100, 20, ftq, 1000, 1)

/*
 * make -j N in small, on every CPU online: a C compiler the host carried
 * in compiles its sources in N jobs (build.c); us per whole build.  Only
 * with kbench run --build-cc: without a compiler the guest leaves it out.
 */
#define KB_ROWS_BUILD(X) \
	X("build", "us", "smp", 0, 2, 1, build, 0, 0)

/* The controls (user space only: no kernel code of note to train). */
#define KB_ROWS_MEM(X) \
	X("mem_read_bw", "MB/s", "mem", 0, 8, 0, mem_read, 8, 0) \
	X("mem_write_bw", "MB/s", "mem", 0, 8, 0, mem_write, 8, 0) \
	X("mem_load_lat", "ns", "mem", 0, 2000000, 0, mem_latency, 8, 0)

#define KB_ROWS(X) \
	KB_ROWS_PROC(X) KB_ROWS_IPC(X) KB_ROWS_CTX(X) KB_ROWS_FSVM(X) KB_ROWS_SMP(X) \
	KB_ROWS_FTQ(X) KB_ROWS_BUILD(X) KB_ROWS_MEM(X)

/* The group of the controls: never trained, left out of every average. */
#define KB_CONTROL_GROUP "mem"
/*
 * The group of the rows of kbench run --program (program.h): work no one
 * here wrote, never trained on, judged apart from the held-out rows.
 */
#define KB_PROGRAM_GROUP "programs"

#endif
