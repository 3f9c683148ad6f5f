# kbench's default machine: a current x86-64 core, AMD Zen 4 (Ryzen 7000,
# EPYC 9004).  Sources:
#   [SOG]  AMD, "Software Optimization Guide for the AMD Zen4
#          Microarchitecture", publication 57647, rev. 1.00 (2023)
#   [CnC]  Chips and Cheese, "AMD's Zen 4 Part 2: Memory Subsystem and
#          Conclusion" (2022): measured latencies
#   [IL]   InstLatx64 (github.com/InstLatx64/InstLatx64), AuthenticAMD/
#          AuthenticAMD0A60F12_K19_Raphael_04_NewMemLat.txt: AIDA64's
#          memory latency measured on a Ryzen 9 7950X at 4.49 GHz, best
#          page-random walk (lines random within pages visited one by one:
#          few TLB misses, a hit's latency and not a walk's);
#          _InstLatX64.txt and _CPUID.txt beside it: instruction latencies
#          (insn.c's), caches
#   [LLVM] LLVM's scheduling model, llvm/lib/Target/X86/X86ScheduleZnver4.td
name = x86-64 (AMD Zen 4)
# The additive formula's base (machines whose code the core's timing
# cannot read): the model's own choice, two instructions per cycle.
cpi = 0.5
# The core's timing: each instruction waits for its registers and takes
# its latency in a reorder window.
width = 6                  # [SOG] 6 macro-ops dispatched a cycle; [LLVM] 6
rob = 320                  # [SOG] 320-entry retire queue; [LLVM] 320
l1_latency = 4             # [SOG] 4 cycles load to use (integer); [IL] 4.0
l1i = 32K 8 64             # [SOG] 32 KB, 8-way, 64-byte lines; [IL] the same
l1d = 32K 8 64             # [SOG] 32 KB, 8-way, 64-byte lines; [IL] the same
l2 = 1M 8 64               # [SOG] 1 MB private, 8-way; [IL] the same
llc = 32M 16 64            # [SOG] 32 MB L3 per CCX, 16-way; [IL] the same
l2_latency = 14            # [SOG] 14 cycles load to use; [IL] 14.1
# [IL] 53.6 cycles (a 16 MB block); [SOG] says 50 on average.  Measured
# on the part this profile models, so the measurement.
llc_latency = 54
# [IL] 320 cycles, 71.3 ns at 4.49 GHz (a 128 MB block; 347 cycles walked
# fully at random, TLB misses included); [CnC] about 73 ns.
memory_latency = 320
# A line another core of the CCX wrote: measured core-to-core latency
# within a CCX, 15 to 19 ns; about 17 ns at 4.8 GHz.
coherence_latency = 82
branch_penalty = 13        # [SOG] 11 to 18 cycles; the common case; [LLVM] 13
# The predictor's sizes are the model's, not published: TAGE, whose
# family current cores' direction predictors are, 8 tagged tables of 2K
# entries (about 30 KB) with histories of 4 to 640 outcomes, before 64K
# counters by address; the return stack is [SOG]'s 32 entries.  TAGE
# against a gshare of 16 bits: bench/README, "the predictor".
bp_history = 16
tage = 8 11 4 640
btb_entries = 4096
ras_depth = 32
# The front end.  [AT] AnandTech, "AMD Zen 4 Ryzen 9 7950X and Ryzen 5
# 7600X Review" (2022), its Zen 4 execution pipeline page; [JC] Jiajie
# Chen's notes on AMD's branch prediction (jia.je, 2024), quoting [SOG]
# and AMD's "Next-Generation Zen 4 Core" (IEEE Micro, 2024); [Zen3] AMD's
# Zen 3 guide (publication 56665) where Zen 4's own figure was not found;
# [host] measured on this project's host, an Intel Xeon (Granite Rapids
# class) under KVM (bench/README.md).
fetch_bytes = 32           # [Zen3] 32 bytes a cycle from L1i; the op cache is not modelled
# [JC] one taken branch a cycle sustained: the L1i or op cache fetch
# limits it, though two can be predicted
fetch_windows = 1
btb1 = 1536 6 0            # [AT] 1.5K entries; [Zen3] no bubble; the ways are the model's
btb2 = 7168 7 3            # [AT] 7K entries; [Zen3] three bubbles; the ways are the model's
# Not published: about what N1's redirect was measured to cost (arm64.profile).
btb_redirect = 5
# How far the predictor runs ahead is not published ([JC]: it does); the
# lines in flight are not published either: [host] streams 192 KB of
# straight code from its L2 at 4.3 instructions a cycle, the model with
# its profile and four in flight at 3.8.
prefetch = 24
fetch_misses = 4
itlb = 64 64 512 4         # [IL] CPUID: 64 fully associative; L2 512, 4-way (4 KB pages)
# [IL] CPUID: 72 fully associative; L2 3072 entries (the model's 12 ways:
# 3072 / 8 is not a power of two of sets)
dtlb = 72 72 3072 12
tlb_latency = 7            # not published for Zen 4; [JC] measured 7 on Zen 5
