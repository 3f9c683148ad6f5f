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
# The predictor's sizes are the model's (gshare, far simpler than the
# real one); the return stack is [SOG]'s 32 entries.
bp_history = 16
btb_entries = 4096
ras_depth = 32
